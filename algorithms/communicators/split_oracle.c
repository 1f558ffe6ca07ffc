/* The split oracle (split_oracle.h): colour classes sorted by key and rank,
 * computed once per creation in the simulator. */
#include "algorithms/communicators/split_oracle.h"

#include <math.h>

typedef struct { const int32_t *color, *key; } ck_view;

static int by_color_key_rank(const void *a, const void *b, void *user)
{
  const ck_view *v = user;
  int x = *(const int *)a, y = *(const int *)b;
  if (v->color[x] != v->color[y])
    return v->color[x] < v->color[y] ? -1 : 1;
  if (v->key[x] != v->key[y])
    return v->key[x] < v->key[y] ? -1 : 1;
  return (x > y) - (x < y);
}

cs_wid *cs_split_outer_wids(const cs_comm *outer)
{
  cs_wid *wr = g_new(cs_wid, (gsize)outer->size);
  if (outer->map)
    cs_gm_decode((cs_groupmap *)cs_shared_map_groupmap(outer->map), 0, outer->size, wr);
  else
    for (int i = 0; i < outer->size; i++)
      wr[i] = (cs_wid)i;
  return wr;
}

void cs_split_sort_members(int *order, int members, const int32_t *color, const int32_t *key)
{
  ck_view v = {color, key};
  g_qsort_with_data(order, members, sizeof(int), by_color_key_rank, &v);
}

static void oracle_free(gpointer x)
{
  cs_split_oracle *o = x;
  g_free(o->grank);
  g_free(o->gsize);
  g_free(o->class_of);
  g_free(o->class_size);
  g_free(o->first);
  g_free(o);
}

uint64_t cs_split_memo_key(uint32_t seq, int32_t cls) { return cs_memo_key(seq, UINT64_C(0x80000000) | (uint32_t)cls); }

static int *sorted_members(const cs_comm_request *rq, int n, int64_t *members)
{
  int *order = g_new(int, (gsize)n + 1);
  int64_t m = 0;
  for (int i = 0; i < n; i++)
    if (rq->color[i] != CS_COLOR_UNDEFINED)
      order[m++] = i;
  cs_split_sort_members(order, (int)m, rq->color, rq->key);
  *members = m;
  return order;
}

static void deposit_class(cs_world *w, const cs_comm_request *rq, cs_split_oracle *o, const cs_wid *wr,
                          const int *order, int64_t a, int64_t b, cs_wid *list)
{
  int32_t cls = o->classes++;
  o->class_size[cls] = (int32_t)(b - a);
  o->first[cls] = INT32_MAX;
  for (int64_t j = a; j < b; j++) {
    o->grank[order[j]] = (int32_t)(j - a);
    o->gsize[order[j]] = (int32_t)(b - a);
    o->class_of[order[j]] = cls;
    if (order[j] < o->first[cls])
      o->first[cls] = order[j];
    list[j - a] = wr[order[j]];
  }
  GError *e = NULL;
  if (!cs_comm_memo_deposit(w, cs_split_memo_key(rq->seq, cls), list, b - a, &e)) {
    g_error_free(e);
    o->failed = true;
  }
}

static cs_split_oracle *oracle_make(cs_world *w, const cs_comm *outer, const cs_wid *wr, const cs_comm_request *rq)
{
  int n = outer->size;
  g_assert(n > 0);
  cs_split_oracle *o = g_new0(cs_split_oracle, 1);
  o->grank = g_new(int32_t, (gsize)n);
  o->gsize = g_new0(int32_t, (gsize)n);
  o->class_of = g_new(int32_t, (gsize)n);
  o->class_size = g_new0(int32_t, (gsize)n + 1);
  o->first = g_new0(int32_t, (gsize)n + 1);
  for (int i = 0; i < n; i++)
    o->grank[i] = o->class_of[i] = -1;
  int *order = sorted_members(rq, n, &o->members);
  cs_wid *list = g_new(cs_wid, (gsize)o->members + 1);
  for (int64_t a = 0, b; a < o->members; a = b) {
    for (b = a + 1; b < o->members && rq->color[order[b]] == rq->color[order[a]]; b++)
      ;
    deposit_class(w, rq, o, wr, order, a, b, list);
  }
  g_free(list);
  g_free(order);
  return o;
}

const cs_split_oracle *cs_split_oracle_get(cs_comm *outer, const cs_comm_request *rq)
{
  cs_world *w = outer->world;
  uint64_t key = cs_memo_key(rq->seq, UINT64_C(0xFFFFFFFE));
  cs_split_oracle *o = cs_world_oracle(w, key);
  if (o)
    return o;
  cs_wid *wr = cs_split_outer_wids(outer);
  o = oracle_make(w, outer, wr, rq);
  g_free(wr);
  cs_world_oracle_put(w, key, o, oracle_free);
  return o;
}

cs_create_status cs_split_new_comm(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, const cs_split_oracle *o,
                                   uint32_t ctx, int32_t rank, int32_t size, cs_comm **out)
{
  int32_t cls = o->class_of[outer->rank];
  cs_shared_map *map =
      cls < 0 || o->failed ? NULL : cs_comm_copy_memo_map(p, outer->world, cs_split_memo_key(rq->seq, cls));
  if (!map)
    return CS_CREATE_MAP_FAILED;
  *out = cs_comm_new(p, outer->world, ctx, rank, size, map);
  return CS_CREATE_OK;
}

int cs_ceil_lg(int64_t n)
{
  int k = 0;
  while ((INT64_C(1) << k) < n)
    k++;
  return k;
}

uint64_t cs_bruck_messages(int64_t n) { return (uint64_t)n * (uint64_t)cs_ceil_lg(n); }

void cs_split_charge_compares(cs_proc *p, cs_world *w, double compares)
{
  if (compares > 0)
    cs_compute(p, cs_world_cpu_seconds(w, cs_world_cfg(w)->sort_ns_per_compare * compares));
}
