/* The native engine in the collective pipeline (see native_run.h). */
#include "sim/drivers/native_run.h"
#include "sim/engine/native/coll_source.h"
#include "sim/engine/native/goal_source.h"

#include <string.h>

/* Traffic per (source node, destination node). */
typedef struct pair_tally {
  GHashTable *pairs; /* key src * nodes + dst -> uint64_t[2] {bytes, messages} */
  int64_t nodes;
} pair_tally;

static void tally_init(pair_tally *t, int64_t nodes)
{
  t->pairs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  t->nodes = nodes;
}

static void tally_add(pair_tally *t, int64_t src, int64_t dst, uint64_t bytes)
{
  int64_t key = src * t->nodes + dst;
  uint64_t *v = g_hash_table_lookup(t->pairs, &key);
  if (!v) {
    v = g_new0(uint64_t, 2);
    g_hash_table_insert(t->pairs, g_memdup2(&key, sizeof key), v);
  }
  v[0] += bytes;
  v[1]++;
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* To sink in increasing (src, dst) order; frees the tally. */
static void tally_emit(pair_tally *t, cs_pair_sink sink, void *user)
{
  guint n = 0;
  int64_t **keys = (int64_t **)g_hash_table_get_keys_as_array(t->pairs, &n);
  int64_t *sorted = g_new(int64_t, n + 1);
  for (guint i = 0; i < n; i++)
    sorted[i] = *keys[i];
  g_free(keys);
  qsort(sorted, n, sizeof *sorted, cmp_i64);
  for (guint i = 0; sink && i < n; i++) {
    const uint64_t *v = g_hash_table_lookup(t->pairs, &sorted[i]);
    sink(user, sorted[i] / t->nodes, sorted[i] % t->nodes, v[0], v[1]);
  }
  g_free(sorted);
  g_hash_table_destroy(t->pairs);
}

static void on_delivery(void *user, uint32_t src, uint32_t dst, uint64_t bytes)
{
  const cs_native_timed *run = user;
  int64_t a = cs_tt_node_of(run->tt, src), b = cs_tt_node_of(run->tt, dst);
  if (run->pairs)
    cs_pair_digest_add(run->pairs, a, b, bytes, 1);
  if (run->delivered)
    cs_linkusage_add(run->delivered, a, b, bytes, 1);
}

/* Routes from rank to rank over the platform's links (loggops-links). */
typedef struct route_ctx {
  const cs_native_timed *run;
  cs_route_buf buf;
} route_ctx;

static int rank_route(void *user, uint32_t src, uint32_t dst, const int32_t **links)
{
  route_ctx *C = user;
  int n = cs_netmap_route(C->run->map, &C->buf, cs_tt_node_of(C->run->tt, src), cs_tt_node_of(C->run->tt, dst), links);
  return n > 0 ? n : 0;
}

static cs_link_net *link_net(route_ctx *C)
{
  const cs_netmap *map = C->run->map;
  double *bw = g_new(double, map->nlinks > 0 ? map->nlinks : 1);
  for (int64_t l = 0; l < map->nlinks; l++)
    bw[l] = map->ops->link_bandwidth(map, l);
  cs_link_net *net = cs_link_net_new(map->nlinks, bw, rank_route, C);
  cs_link_net_set_switching(net, C->run->model.switching);
  g_free(bw);
  return net;
}

bool cs_native_timed_run(const cs_native_timed *run, cs_coll_timed *out, uint32_t *last_rank, uint64_t *finish_ns,
                         GError **err)
{
  memset(out, 0, sizeof *out);
  cs_native_result r;
  void *user = (void *)run;
  cs_loggops_params model = run->model;
  route_ctx C = {.run = run};
  model.net = model.links && run->map ? link_net(&C) : NULL;
  bool ok = run->goal ? cs_native_run_goal(run->goal, &model, on_delivery, user, &r, err)
                      : cs_native_run_coll(run->algo, run->prm, run->gamma, &model, on_delivery, user, &r, err);
  cs_link_net_free(model.net);
  cs_route_buf_clear(&C.buf);
  if (ok) {
    out->sim_time_s = (double)r.finish_ns * 1e-9;
    out->messages = r.messages;
    out->bytes = r.bytes;
    out->max_message_bytes = r.max_message_bytes;
    out->size_mismatches = r.size_mismatches;
    out->finished = (int)run->tt->p;
    *last_rank = r.last_rank;
    *finish_ns = r.finish_ns;
  }
  return ok;
}

void cs_goal_pattern(const cs_goal_graph *g, const cs_two_tier *tt, cs_pair_sink sink, void *user,
                     cs_pattern_totals *tot)
{
  memset(tot, 0, sizeof *tot);
  pair_tally t;
  tally_init(&t, cs_tt_nodes(tt));
  for (uint32_t r = 0; r < g->p; r++)
    for (uint64_t i = g->rank_first[r]; i < g->rank_first[r + 1]; i++) {
      const cs_goal_op *op = &g->ops[i];
      tot->ops++;
      if (op->type != CS_GOAL_SEND)
        continue;
      tally_add(&t, cs_tt_node_of(tt, r), cs_tt_node_of(tt, op->peer), op->size);
      tot->messages++;
      tot->bytes += op->size;
      if (op->size > tot->max_message_bytes)
        tot->max_message_bytes = op->size;
    }
  tally_emit(&t, sink, user);
}
