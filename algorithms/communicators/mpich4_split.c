/* MPICH 4.2.3's MPI_Comm_split (src/mpi/comm/comm_split.c,
 * MPIR_Comm_split_impl; context ids from src/mpi/comm/contextid.c,
 * MPIR_Get_contextid_sparse_group), on an intracommunicator, single
 * threaded:
 *  1. MPIR_Allgather of (colour, key), 8 bytes per rank over the parent
 *     (Bruck here; MPICH's auto selection picks recursive doubling for a
 *     power of two and Bruck otherwise at these sizes: the same n ceil(lg n)
 *     messages);
 *  2. every member links the entries of its colour (a scan of n) and sorts
 *     them by key with qsort, ties by parent rank (charged n + m lg m
 *     compares);
 *  3. the context id, "sparse": a proclet of the undefined colour passes
 *     ignore_id and contributes an all-ones mask; the others contribute
 *     their mask.  The first iteration is the eager one: only the first
 *     MPIR_CVAR_CTXID_EAGER_SIZE = 2 words of the mask, in an AND-allreduce
 *     of MPIR_MAX_CONTEXT_MASK + 1 = 65 ints (260 bytes; the extra int is
 *     the ALL_OWN_MASK_FLAG).  If the eager words hold no common free id a
 *     second AND-allreduce of the other 62 words follows.  The id is the
 *     highest set bit of the first non-zero word (locate_context_bit), the
 *     same for every colour; members take it, ignore_id proclets do not.
 *     A 16-bit context id leaves 11 prefix bits: the 2^11-bit mask of
 *     context_id.h, the same as MPICH2's.
 *  4. every member builds its own map of the group (MPIR_Comm_map_irregular
 *     then the device's table: one copy per member, no sharing).
 *
 * Messages for n proclets: n ceil(lg n) + i (2 rem + pof2 lg pof2), i the
 * allreduces of step 3 (pof2 the largest power of two <= n, rem = n -
 * pof2).  i = 1 while the eager words hold a common free id: the first 61
 * creations a proclet takes part in; the formula is for i = 1 and the
 * registry says so (formula_creations = 61: a run of more repeats reports
 * no formula; from the 62nd creation on, i = 2).  When no id
 * is left MPICH adds a MIN-allreduce of the free counts and fails
 * (**toomanycomm): here that allreduce is made and the members report
 * CS_CREATE_NO_CONTEXT_ID.
 */
#include "algorithms/communicators/split_oracle.h"

#include <math.h>
#include <string.h>

enum { EAGER_WORDS = 2, FLAG_WORD = CS_MASK_WORDS };

/* The highest set bit of the first non-zero word in words [lo, hi); -1. */
static int locate_bit(const uint32_t *mask, int lo, int hi)
{
  for (int w = lo; w < hi; w++)
    if (mask[w])
      return w * 32 + (31 - __builtin_clz(mask[w]));
  return -1;
}

/* One iteration: words [lo, hi) of the proclet's mask (all ones if it
 * ignores the id), the others zero, ANDed over the parent. */
static int sparse_iteration(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, bool ignore, int lo, int hi)
{
  uint32_t buf[CS_MASK_WORDS + 1];
  memset(buf, 0, sizeof buf);
  const uint32_t *mine = cs_mask_of(rq->ids, cs_rank(p));
  for (int w = lo; w < hi; w++)
    buf[w] = ignore ? 0xFFFFFFFFu : mine[w];
  buf[FLAG_WORD] = ignore || lo > 0; /* owns the mask after the eager round */
  cs_comm_allreduce(p, outer, buf, sizeof buf, cs_reduce_band);
  return locate_bit(buf, lo, hi);
}

static int mpich4_context_id(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, bool ignore)
{
  int id = sparse_iteration(p, outer, rq, ignore, 0, EAGER_WORDS);
  if (id < 0)
    id = sparse_iteration(p, outer, rq, ignore, EAGER_WORDS, CS_MASK_WORDS);
  if (id < 0) {
    uint32_t minfree = 0; /* the free-count MIN-allreduce before the error */
    cs_comm_allreduce(p, outer, &minfree, sizeof minfree, cs_reduce_band);
    return -1;
  }
  if (!ignore)
    cs_mask_take(cs_mask_of(rq->ids, cs_rank(p)), id);
  return id;
}

cs_create_status cs_mpich4_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  cs_world *w = outer->world;
  cs_comm_allgather(p, outer, NULL, 8, NULL);
  const cs_split_oracle *o = cs_split_oracle_get(outer, rq);
  int me = outer->rank;
  bool member = o->grank[me] >= 0;
  if (member) {
    double m = o->gsize[me];
    cs_split_charge_compares(p, w, outer->size + (m > 1 ? m * log2(m) : 0));
  }
  int id = mpich4_context_id(p, outer, rq, !member);
  if (!member)
    return CS_CREATE_OK;
  if (id < 0)
    return CS_CREATE_NO_CONTEXT_ID;
  return cs_split_new_comm(p, outer, rq, o, cs_mask_ctx(id), o->grank[me], o->gsize[me], out);
}

uint64_t cs_mpich4_split_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  (void)group_size;
  (void)ngroups;
  return cs_bruck_messages(n) + cs_allreduce_messages(n);
}
