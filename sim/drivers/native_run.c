/* The native engine in the collective pipeline (see native_run.h). */
#include "sim/drivers/native_run.h"
#include "sim/engine/native/coll_source.h"
#include "sim/engine/native/goal_source.h"
#include "patterns/node_tally.h"

#include <string.h>

static void trace(const cs_native_timed *run, const cs_native_message *m, int64_t a, int64_t b)
{
  cs_delivery d = {.t_send = (double)m->sent_ns * 1e-9, .t_recv = (double)m->matched_ns * 1e-9, .src = (int)m->src,
                   .dst = (int)m->dst, .src_host = (int)a, .dst_host = (int)b, .bytes = m->bytes, .tag = (int)m->tag,
                   .phase = CS_PHASE_ALGO};
  run->ec->tracer(&d, run->ec->tracer_user);
}

static void on_delivery(void *user, const cs_native_message *m)
{
  const cs_native_timed *run = user;
  int64_t a = cs_tt_node_of(run->tt, m->src), b = cs_tt_node_of(run->tt, m->dst);
  if (run->pairs)
    cs_pair_digest_add(run->pairs, a, b, m->bytes, 1);
  if (run->delivered)
    cs_linkusage_add(run->delivered, a, b, m->bytes, 1);
  if (run->ec && run->ec->tracer)
    trace(run, m, a, b);
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
  if (run->ec && run->ec->tracer_end)
    run->ec->tracer_end(run->ec, run->ec->tracer_user);
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
  cs_node_tally t;
  cs_node_tally_init(&t, cs_tt_nodes(tt), sink, user);
  int64_t *order = cs_ranks_by_node(tt, g->p);
  for (uint32_t k = 0; k < g->p; k++) {
    int64_t r = order[k];
    cs_node_tally_next_source(&t, cs_tt_node_of(tt, r));
    for (uint64_t i = g->rank_first[r]; i < g->rank_first[r + 1]; i++) {
      const cs_goal_op *op = &g->ops[i];
      tot->ops++;
      if (op->type != CS_GOAL_SEND)
        continue;
      cs_node_tally_add(&t, cs_tt_node_of(tt, op->peer), op->size, 1);
      tot->messages++;
      tot->bytes += op->size;
      if (op->size > tot->max_message_bytes)
        tot->max_message_bytes = op->size;
    }
  }
  cs_node_tally_flush(&t);
  g_free(order);
  cs_node_tally_free(&t);
}
