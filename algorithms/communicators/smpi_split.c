/* SimGrid SMPI 3.32's MPI_Comm_split (src/smpi/mpi/smpi_comm.cpp,
 * Comm::split), as SMPI simulates it:
 *  1. gather__default of (colour, key) to rank 0: SMPI's igather, a linear
 *     gather (n - 1 messages of 8 bytes, rank 0 posts all receives);
 *  2. rank 0 walks the table: for every rank i in order whose colour is not
 *     yet handled, it collects the later ranks of that colour (a scan of
 *     the rest of the table), sorts the (key, rank) pairs (std::sort) and
 *     builds the group; charged n - i compares per scan plus m lg m per
 *     sort;
 *  3. rank 0 sends every other member of the colour a copy of the group
 *     (isend of one MPI_PTR: 8 bytes, the group object lives in SMPI's one
 *     address space) and waits for the sends; each member receives its own;
 *  4. every member makes a communicator of the group it got (new Comm).
 * SMPI needs no context-id agreement (its communicators are objects in one
 * address space); here each colour's communicator gets an id made from the
 * creation number and the colour's class, unique in the world (SMPI's own
 * choice of ids is not modelled).  Rank 0 builds every group copy in SMPI;
 * here each member is charged the creation of its own copy (the same work,
 * placed on the member).  A real distributed MPI would have to send the
 * group's 4 m bytes instead of a pointer: SMPI does not, and neither does
 * this model.
 *
 * Messages for n proclets and groups of m_i members: (n - 1) + sum m_i -
 * 1, when rank 0 has a colour (the formula's assumption; otherwise one
 * more).
 */
#include "algorithms/communicators/split_oracle.h"

#include <math.h>

enum { PTR_BYTES = 8 };

static uint32_t smpi_ctx(const cs_comm_request *rq, const cs_comm *outer, int32_t cls)
{
  return 1u + rq->seq * (uint32_t)(outer->size + 1) + (uint32_t)cls;
}

static void linear_gather(cs_proc *p, cs_comm *outer)
{
  if (outer->rank != 0) {
    cs_comm_send(p, outer, 0, CS_TAG_MEMBERS, NULL, 0, 8);
    return;
  }
  for (int src = 1; src < outer->size; src++)
    cs_msg_free(p, cs_comm_recv(p, outer, src, CS_TAG_MEMBERS));
}

/* Steps 2 and 3 at rank 0: classes in the order of their first rank. */
static void root_sends(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, const cs_split_oracle *o)
{
  int n = outer->size;
  for (int i = 0; i < n; i++) {
    int32_t c = o->class_of[i];
    if (c < 0 || o->first[c] != i)
      continue;
    double m = o->class_size[c];
    cs_split_charge_compares(p, outer->world, (n - 1 - i) + (m > 1 ? m * log2(m) : 0));
    uint32_t ctx = smpi_ctx(rq, outer, c);
    for (int j = i; j < n; j++)
      if (o->class_of[j] == c && j != 0)
        cs_comm_send(p, outer, j, CS_TAG_BITMAP, &ctx, sizeof ctx, PTR_BYTES);
  }
}

cs_create_status cs_smpi_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  linear_gather(p, outer);
  const cs_split_oracle *o = cs_split_oracle_get(outer, rq);
  int me = outer->rank;
  if (me == 0)
    root_sends(p, outer, rq, o);
  if (o->grank[me] < 0)
    return CS_CREATE_OK;
  uint32_t ctx = smpi_ctx(rq, outer, o->class_of[me]);
  if (me != 0) {
    cs_msg *m = cs_comm_recv(p, outer, 0, CS_TAG_BITMAP);
    ctx = *(const uint32_t *)m->data;
    cs_msg_free(p, m);
  }
  return cs_split_new_comm(p, outer, rq, o, ctx, o->grank[me], o->gsize[me], out);
}

uint64_t cs_smpi_split_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  uint64_t members = 0;
  for (int g = 0; g < ngroups; g++)
    members += (uint64_t)group_size[g];
  return (uint64_t)(n - 1) + (members ? members - 1 : 0);
}
