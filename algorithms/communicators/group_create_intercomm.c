/* Algorithm 1 of seed 004 (Dinan et al., "Noncollective Communicator
 * Creation in MPI", Section 3): group-collective communicator creation by
 * recursive intercommunicator creation and merging, collective over the
 * group's members only.
 *
 * Every member starts from a duplicate of MPI_COMM_SELF (MPI_Comm_dup: a
 * context id from its own mask, an allreduce over one process: no
 * messages).  For merge_sz = 1, 2, 4, ... < |group|: block gid =
 * grp_rank / merge_sz; an even block with a right neighbour block creates
 * an intercommunicator with it (leaders: rank 0 of each block, through the
 * parent communicator with the group's tag) and merges as LOW; an odd block
 * does the same with its left neighbour and merges as HIGH; then both free
 * the intercommunicator and the old communicator (their ids go back to the
 * masks).  An even block without a right neighbour (|group| not a power of
 * two) waits for a later round.  The result keeps the group's rank order.
 *
 * Messages for a group of g: the sum over rounds k (merge_sz = 2^k) and
 * over the pairs of blocks (a = 2^k members on the left, b = min(2^k,
 * g - left end) on the right) of intercomm_create (a, b) + intercomm_merge
 * (a, b), as documented in those files.  O(log^2 g) time.
 *
 * Choices the paper leaves open: MPI_Group_translate_ranks to the parent
 * (O(|group|) for MPI_COMM_WORLD, as the paper says) is charged as one
 * rank lookup per member on the parent's map (none for the world); one tag
 * per group (tag_base + group index) for every round, which the sources of
 * the leaders' messages keep apart; the merged communicators' maps are
 * arrays (or whatever --map asks) built by every member.
 */
#include "algorithms/communicators/intercomm.h"

/* Memo key of the union made in round `round` by block pair `pair`:
 * the creation's base (low 22 bits zero) with round and pair below. */
static uint64_t union_key(uint64_t memo_base, int round, int pair)
{
  return memo_base | (uint64_t)round << 17 | (uint64_t)pair;
}

uint64_t cs_group_create_intercomm_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  (void)n;
  uint64_t total = 0;
  for (int g = 0; g < ngroups; g++)
    for (int64_t sz = 1; sz < group_size[g]; sz *= 2)
      for (int64_t left = 0; left + sz < group_size[g]; left += 2 * sz) {
        int64_t b = group_size[g] - (left + sz) < sz ? group_size[g] - (left + sz) : sz;
        total += cs_intercomm_create_messages(sz, b) + cs_intercomm_merge_messages(sz, b);
      }
  return total;
}

/* MPI_Comm_dup(MPI_COMM_SELF): an id of the caller's own mask, a map of
 * one member. */
static cs_comm *dup_self(cs_proc *p, cs_world *w, cs_ctxids *ids)
{
  uint32_t *mask = cs_mask_of(ids, cs_rank(p));
  int id = cs_mask_pick(mask);
  if (id < 0)
    return NULL;
  cs_mask_take(mask, id);
  cs_wid me = (cs_wid)cs_rank(p);
  GError *e = NULL;
  cs_shared_map *map = cs_comm_build_map(p, w, 0, &me, 1, &e);
  g_clear_error(&e);
  return map ? cs_comm_new(p, w, cs_mask_ctx(id), 0, 1, map) : NULL;
}

/* Parent ranks of the group's members (MPI_Group_translate_ranks). */
static int *parent_ranks(cs_proc *p, cs_comm *parent, const cs_wid *group, int64_t m)
{
  int *pids = cs_alloc(p, sizeof(int) * (size_t)m);
  for (int64_t i = 0; i < m; i++)
    pids[i] = cs_comm_group_rank(p, parent, (int)group[i]);
  return pids;
}

/* One round: the new communicator, or cur itself when this block waits. */
static cs_comm *merge_round(cs_proc *p, cs_comm *parent, cs_comm *cur, const int *pids, int64_t m, int grp_rank,
                            int sz, int tag, cs_ctxids *ids, uint64_t key)
{
  int gid = grp_rank / sz;
  bool left = gid % 2 == 0;
  if (left && (int64_t)(gid + 1) * sz >= m)
    return cur;
  int partner = left ? pids[(gid + 1) * sz] : pids[(gid - 1) * sz];
  cs_intercomm *ic = cs_intercomm_create(p, cur, 0, parent, partner, tag, ids);
  cs_comm *merged = ic ? cs_intercomm_merge(p, ic, !left, ids, key) : NULL;
  cs_intercomm_free(p, ic, ids);
  cs_mpich_comm_free(p, cur, ids);
  return merged;
}

cs_comm *cs_group_comm_create_intercomm(cs_proc *p, cs_comm *parent, const cs_wid *group, int64_t m, int grp_rank,
                                         int tag, cs_ctxids *ids, uint64_t memo_base)
{
  int *pids = parent_ranks(p, parent, group, m);
  cs_comm *cur = dup_self(p, parent->world, ids);
  for (int sz = 1, round = 0; cur && sz < m; sz *= 2, round++)
    cur = merge_round(p, parent, cur, pids, m, grp_rank, sz, tag, ids, union_key(memo_base, round, grp_rank / (2 * sz)));
  cs_free(p, pids);
  return cur;
}

cs_create_status cs_group_create_intercomm(cs_proc *p, cs_comm *parent, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  int g = rq->group_of[cs_rank(p)];
  if (g < 0)
    return CS_CREATE_OK; /* not a member: takes no part */
  uint64_t base = (uint64_t)(rq->seq + 1) << 48 | (uint64_t)g << 22;
  *out = cs_group_comm_create_intercomm(p, parent, rq->groups[g], rq->group_size[g], rq->group_rank[cs_rank(p)],
                                        rq->tag_base + g, rq->ids, base);
  return *out ? CS_CREATE_OK : CS_CREATE_NO_CONTEXT_ID;
}
