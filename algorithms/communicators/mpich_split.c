/* MPICH2's MPI_Comm_split (seed 003, Section 4.1; MPICH2 1.x
 * src/mpi/comm/comm_split.c), the baseline of Procedure 1:
 *  1. allgather of (colour, key) over the outer communicator (Bruck, 8
 *     bytes per proclet: every proclet receives and holds n x 8 bytes);
 *  2. every proclet scans the table for its colour and sorts those entries
 *     by key and rank (charged: n + m lg m compares);
 *  3. a context id from the mask: AND-allreduce of the 2^11-bit masks over
 *     the outer communicator, the first common free id, the same for every
 *     colour;
 *  4. every member builds its own group map (no sharing: the id is not
 *     unique among the communicators of an OS process).
 * Messages for n proclets: n ceil(lg n) allgather + 2 rem + pof2 lg pof2
 * allreduce (pof2 the largest power of two <= n, rem = n - pof2).
 *
 * Simulation: the allgather's payload is virtual; what it stands for (every
 * colour class in order, each member's group rank) is computed once per
 * split in the simulator and every proclet is charged its own scan, sort
 * and map.
 */
#include "algorithms/communicators/intercomm.h"
#include "algorithms/communicators/split_oracle.h"

#include <math.h>
#include <string.h>

typedef struct split_table {
  int32_t *grank;  /* per outer rank */
  int32_t *gsize;  /* per outer rank */
  bool failed;     /* a class's map could not be built */
} split_table;

static void split_table_free(gpointer x)
{
  split_table *t = x;
  g_free(t->grank);
  g_free(t->gsize);
  g_free(t);
}

/* What every proclet computes from the allgathered table, once. */
static split_table *compute_table(cs_world *w, const cs_comm *outer, const cs_wid *wr, const cs_comm_request *rq)
{
  int n = outer->size, members = 0;
  g_assert(n > 0);
  split_table *t = g_new0(split_table, 1);
  t->grank = g_new(int32_t, (gsize)n);
  t->gsize = g_new0(int32_t, (gsize)n);
  int *order = g_new(int, (gsize)n);
  for (int i = 0; i < n; i++) {
    t->grank[i] = -1;
    if (rq->color[i] != CS_COLOR_UNDEFINED)
      order[members++] = i;
  }
  cs_split_sort_members(order, members, rq->color, rq->key);
  cs_wid *list = g_new(cs_wid, (gsize)(members ? members : 1));
  for (int a = 0, b; a < members; a = b) {
    for (b = a + 1; b < members && rq->color[order[b]] == rq->color[order[a]]; b++)
      ;
    for (int j = a; j < b; j++) {
      t->grank[order[j]] = j - a;
      t->gsize[order[j]] = b - a;
      list[j - a] = wr[order[j]];
    }
    GError *e = NULL;
    if (!cs_comm_memo_deposit(w, cs_memo_key(rq->seq, (uint32_t)rq->color[order[a]]), list, b - a, &e)) {
      g_error_free(e);
      t->failed = true;
    }
  }
  g_free(list);
  g_free(order);
  return t;
}

static const split_table *table_of(cs_proc *p, cs_comm *outer, const cs_comm_request *rq)
{
  cs_world *w = outer->world;
  uint64_t key = cs_memo_key(rq->seq, UINT64_C(0xFFFFFFFF));
  split_table *t = cs_world_oracle(w, key);
  if (!t) {
    cs_wid *wr = cs_split_outer_wids(outer);
    t = compute_table(w, outer, wr, rq);
    g_free(wr);
    cs_world_oracle_put(w, key, t, split_table_free);
  }
  (void)p;
  return t;
}

static void charge_scan_and_sort(cs_proc *p, cs_world *w, int n, int m)
{
  double compares = n + (m > 1 ? m * log2((double)m) : 0);
  cs_compute(p, cs_world_cpu_seconds(w, cs_world_cfg(w)->sort_ns_per_compare * compares));
}

/* The mask allreduce of MPIR_Get_contextid; -1 when no id is free. */
int cs_mpich_context_id(cs_proc *p, cs_comm *outer, cs_ctxids *ids)
{
  uint32_t mask[CS_MASK_WORDS];
  memcpy(mask, cs_mask_of(ids, cs_rank(p)), sizeof mask);
  cs_comm_allreduce(p, outer, mask, sizeof mask, cs_reduce_band);
  int id = cs_mask_pick(mask);
  if (id >= 0)
    cs_mask_take(cs_mask_of(ids, cs_rank(p)), id);
  return id;
}

/* The count at the top of the file: n ceil(lg n) (Bruck's allgather) plus
 * the mask allreduce's 2 rem + pof2 lg pof2; the groups do not matter. */
uint64_t cs_mpich_split_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  (void)group_size;
  (void)ngroups;
  uint64_t rounds = 0;
  while ((INT64_C(1) << rounds) < n)
    rounds++;
  return (uint64_t)n * rounds + cs_allreduce_messages(n);
}

cs_create_status cs_mpich_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  cs_world *w = outer->world;
  cs_comm_allgather(p, outer, NULL, 8, NULL);
  const split_table *t = table_of(p, outer, rq);
  int me = outer->rank;
  if (t->grank[me] >= 0)
    charge_scan_and_sort(p, w, outer->size, t->gsize[me]);
  int id = cs_mpich_context_id(p, outer, rq->ids);
  if (t->grank[me] < 0)
    return CS_CREATE_OK;
  if (id < 0)
    return CS_CREATE_NO_CONTEXT_ID;
  cs_shared_map *map = cs_comm_copy_memo_map(p, w, cs_memo_key(rq->seq, (uint32_t)rq->color[me]));
  if (!map)
    return CS_CREATE_MAP_FAILED;
  *out = cs_comm_new(p, w, cs_mask_ctx(id), t->grank[me], t->gsize[me], map);
  return CS_CREATE_OK;
}
