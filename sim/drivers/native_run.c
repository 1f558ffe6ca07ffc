/* The native engine in the collective pipeline (see native_run.h). */
#include "sim/drivers/native_run.h"
#include "sim/engine/native/coll_source.h"
#include "sim/engine/native/goal_source.h"

#include <string.h>

/* Traffic from one source node at a time, per destination node (arrays
 * of the nodes' size, as the pattern-generator's: memory grows with the
 * nodes, not with the pairs, which an alltoall has nodes^2 of). */
typedef struct pair_tally {
  int64_t nodes;
  uint64_t *bytes, *messages;
  int64_t *touched, ntouched;
} pair_tally;

static void tally_init(pair_tally *t, int64_t nodes)
{
  t->nodes = nodes;
  t->bytes = g_new0(uint64_t, nodes);
  t->messages = g_new0(uint64_t, nodes);
  t->touched = g_new(int64_t, nodes);
  t->ntouched = 0;
}

static void tally_add(pair_tally *t, int64_t dst, uint64_t bytes)
{
  if (t->messages[dst] == 0)
    t->touched[t->ntouched++] = dst;
  t->bytes[dst] += bytes;
  t->messages[dst]++;
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Source node src's pairs to sink in increasing destination order. */
static void tally_flush(pair_tally *t, int64_t src, cs_pair_sink sink, void *user)
{
  qsort(t->touched, (size_t)t->ntouched, sizeof *t->touched, cmp_i64);
  for (int64_t i = 0; i < t->ntouched; i++) {
    int64_t d = t->touched[i];
    if (sink)
      sink(user, src, d, t->bytes[d], t->messages[d]);
    t->bytes[d] = t->messages[d] = 0;
  }
  t->ntouched = 0;
}

static void tally_free(pair_tally *t)
{
  g_free(t->bytes);
  g_free(t->messages);
  g_free(t->touched);
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

/* The ranks grouped by node, in increasing node order (a counting sort;
 * ranks of one node in increasing order), and the first of each node's in
 * *first (nodes + 1 entries). */
static uint32_t *ranks_by_node(const cs_goal_graph *g, const cs_two_tier *tt, int64_t nodes, uint64_t **first)
{
  uint64_t *at = g_new0(uint64_t, nodes + 1);
  for (uint32_t r = 0; r < g->p; r++)
    at[cs_tt_node_of(tt, r) + 1]++;
  for (int64_t n = 0; n < nodes; n++)
    at[n + 1] += at[n];
  *first = g_memdup2(at, sizeof *at * (size_t)(nodes + 1));
  uint32_t *order = g_new(uint32_t, g->p + 1);
  for (uint32_t r = 0; r < g->p; r++)
    order[at[cs_tt_node_of(tt, r)]++] = r;
  g_free(at);
  return order;
}

void cs_goal_pattern(const cs_goal_graph *g, const cs_two_tier *tt, cs_pair_sink sink, void *user,
                     cs_pattern_totals *tot)
{
  memset(tot, 0, sizeof *tot);
  int64_t nodes = cs_tt_nodes(tt);
  pair_tally t;
  tally_init(&t, nodes);
  uint64_t *first;
  uint32_t *order = ranks_by_node(g, tt, nodes, &first);
  for (int64_t node = 0; node < nodes; node++) {
    for (uint64_t k = first[node]; k < first[node + 1]; k++) {
      uint32_t r = order[k];
      for (uint64_t i = g->rank_first[r]; i < g->rank_first[r + 1]; i++) {
        const cs_goal_op *op = &g->ops[i];
        tot->ops++;
        if (op->type != CS_GOAL_SEND)
          continue;
        tally_add(&t, cs_tt_node_of(tt, op->peer), op->size);
        tot->messages++;
        tot->bytes += op->size;
        if (op->size > tot->max_message_bytes)
          tot->max_message_bytes = op->size;
      }
    }
    tally_flush(&t, node, sink, user);
  }
  g_free(order);
  g_free(first);
  tally_free(&t);
}
