/* Open MPI 4.1.8's MPI_Comm_split (ompi/communicator/comm.c,
 * ompi_comm_split_with_info; ompi/communicator/comm_cid.c,
 * ompi_comm_nextcid and ompi_comm_activate), on an intracommunicator,
 * single threaded:
 *  1. the coll component's allgather of (colour, key), 8 bytes per rank
 *     (tuned picks recursive doubling at these sizes, Bruck for other than
 *     powers of two; here Bruck: n ceil(lg n) messages either way);
 *  2. every proclet counts its colour, copies (rank, key) of its colour and
 *     qsorts by key then rank (charged n + m lg m compares);
 *  3. ompi_comm_nextcid, iterated until all agree: every member proposes
 *     the lowest free cid >= start in its own communicator table (a proclet
 *     of the undefined colour has its rank set to MPI_UNDEFINED and
 *     proposes 0), MAX-allreduce; every member checks that the maximum is
 *     free in its table (flag), MIN-allreduce of the flags; all 1: every
 *     member takes it; else start = maximum + 1 and again;
 *  4. ompi_comm_activate: a MIN-allreduce that acts as a barrier before the
 *     new communicator is used;
 *  5. every member holds its own group (ompi_group_incl of the parent's
 *     procs: one map per member).
 * The allreduces are libnbc's (ompi_comm_allreduce_intra_nb calls the
 * parent's coll_iallreduce): for 4-byte ints, NBC_ARED_BINOMIAL, a binomial
 * reduce to rank 0 then a binomial broadcast, 2 (n - 1) messages.
 *
 * Messages for n proclets: n ceil(lg n) + (2 r + 1) 2 (n - 1), r the cid
 * rounds of step 3.  r = 1 when the members' tables agree on the lowest
 * free cid (a fresh world, or every member took part in the same
 * creations); the formula is for r = 1.
 *
 * Choice: the communicator table is the per-proclet id mask of
 * context_id.h (2^11 ids, bits 0-2 taken by COMM_WORLD, COMM_SELF and
 * COMM_NULL as in Open MPI); Open MPI's table grows to the PML's maximum
 * context id (ob1: 2^31 - 1), which no run here reaches either way.
 */
#include "algorithms/communicators/split_oracle.h"

#include <math.h>

static void reduce_max_int(void *inout, const void *in, size_t bytes)
{
  (void)bytes;
  int32_t *a = inout;
  const int32_t *b = in;
  if (*b > *a)
    *a = *b;
}

static void reduce_min_int(void *inout, const void *in, size_t bytes)
{
  (void)bytes;
  int32_t *a = inout;
  const int32_t *b = in;
  if (*b < *a)
    *a = *b;
}

/* libnbc's binomial allreduce: reduce to rank 0, broadcast. */
static int32_t nbc_allreduce(cs_proc *p, cs_comm *outer, int32_t value, cs_reduce_op op)
{
  cs_comm_reduce(p, outer, 0, &value, sizeof value, op);
  cs_comm_bcast(p, outer, 0, &value, sizeof value);
  return value;
}

static bool cid_free(const uint32_t *mask, int id) { return id < CS_MASK_BITS && (mask[id / 32] >> (id % 32)) & 1u; }

static int32_t lowest_free(const uint32_t *mask, int start)
{
  for (int id = start; id < CS_MASK_BITS; id++)
    if (cid_free(mask, id))
      return id;
  return CS_MASK_BITS;
}

/* Step 3; -1 when the table is full (Open MPI: OMPI_ERR_OUT_OF_RESOURCE). */
static int ompi_nextcid(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, bool participate)
{
  uint32_t *mask = cs_mask_of(rq->ids, cs_rank(p));
  for (int start = CS_MASK_RESERVED;;) {
    int32_t nextcid = nbc_allreduce(p, outer, participate ? lowest_free(mask, start) : 0, reduce_max_int);
    if (nextcid >= CS_MASK_BITS)
      return -1;
    int32_t flag = !participate || cid_free(mask, nextcid);
    if (nbc_allreduce(p, outer, flag, reduce_min_int) == 1) {
      if (participate)
        cs_mask_take(mask, nextcid);
      return nextcid;
    }
    start = nextcid + 1;
  }
}

cs_create_status cs_ompi_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  cs_world *w = outer->world;
  cs_comm_allgather(p, outer, NULL, 8, NULL);
  const cs_split_oracle *o = cs_split_oracle_get(outer, rq);
  int me = outer->rank;
  bool member = o->grank[me] >= 0;
  double m = member ? o->gsize[me] : 0;
  cs_split_charge_compares(p, w, outer->size + (m > 1 ? m * log2(m) : 0));
  int cid = ompi_nextcid(p, outer, rq, member);
  if (cid < 0)
    return member ? CS_CREATE_NO_CONTEXT_ID : CS_CREATE_OK;
  nbc_allreduce(p, outer, 1, reduce_min_int); /* ompi_comm_activate */
  if (!member)
    return CS_CREATE_OK;
  return cs_split_new_comm(p, outer, rq, o, cs_mask_ctx(cid), o->grank[me], o->gsize[me], out);
}

uint64_t cs_ompi_split_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  (void)group_size;
  (void)ngroups;
  return cs_bruck_messages(n) + 3 * 2 * (uint64_t)(n - 1);
}
