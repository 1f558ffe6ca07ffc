/* The pattern-generator: see pattern.h. */
#include "patterns/pattern.h"

#include <stdlib.h>
#include <string.h>

typedef struct gen {
  const cs_sched_params *prm;
  int64_t nodes, src_node;
  uint64_t *bytes, *messages; /* per destination node, for the current source node */
  int64_t *touched;
  int64_t ntouched;
  cs_pair_sink sink;
  void *sink_user;
  cs_pattern_totals *tot;
} gen;

static void charge(gen *G, int64_t dst_node, uint64_t bytes, uint64_t messages)
{
  if (G->messages[dst_node] == 0)
    G->touched[G->ntouched++] = dst_node;
  G->bytes[dst_node] += bytes;
  G->messages[dst_node] += messages;
  G->tot->messages += messages;
  G->tot->bytes += bytes;
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void emit(gen *G, int64_t d)
{
  G->sink(G->sink_user, G->src_node, d, G->bytes[d], G->messages[d]);
  G->bytes[d] = G->messages[d] = 0;
}

/* The current source node's pairs to the sink in increasing destination
 * order: the touched destinations sorted, or, when they are many (an
 * alltoall's), a scan of every destination, which costs less. */
static void flush(gen *G)
{
  if (G->ntouched * 16 >= G->nodes) {
    for (int64_t d = 0; d < G->nodes; d++)
      if (G->messages[d])
        emit(G, d);
  } else {
    qsort(G->touched, (size_t)G->ntouched, sizeof *G->touched, cmp_i64);
    for (int64_t i = 0; i < G->ntouched; i++)
      emit(G, G->touched[i]);
  }
  G->ntouched = 0;
}

static uint64_t op_bytes(const gen *G, const cs_op *op, int64_t i)
{
  cs_op e = cs_op_at_iteration(G->prm, op, i);
  return cs_units_bytes(G->prm, e.units);
}

static void note_largest(gen *G, uint64_t bytes)
{
  if (bytes > G->tot->max_message_bytes)
    G->tot->max_message_bytes = bytes;
}

/* The largest message of iterations [i0, i0+count) of a loop op, into the
 * totals: an exact scan only while `bound` (cs_units_largest_bytes of the
 * op's units, the same at every iteration) says it could raise them. */
static void note_largest_of(gen *G, const cs_op *op, uint64_t bound, int64_t i0, int64_t count)
{
  if (bound <= G->tot->max_message_bytes)
    return;
  if (op->unit_step == 0 || cs_units_uniform(G->prm)) {
    note_largest(G, op_bytes(G, op, i0));
    return;
  }
  for (int64_t i = i0; i < i0 + count; i++)
    note_largest(G, op_bytes(G, op, i));
}

/* A send repeated `it` times by its loop, peer fixed (a send outside
 * loops: once, its largest message its own bytes). */
static void send_fixed_peer(gen *G, const cs_op *op, int64_t it)
{
  uint64_t bytes = cs_loop_op_bytes(G->prm, op, 0, it);
  if (it == 1)
    note_largest(G, bytes);
  else
    note_largest_of(G, op, cs_units_largest_bytes(G->prm, op->units), 0, it);
  charge(G, cs_rank_node(G->prm, op->peer), bytes, (uint64_t)it);
}

/* A send repeated `it` times with a moving peer, charged in runs of
 * iterations whose peers share a node (cs_loop_op_node_run). */
static void send_moving_peer(gen *G, const cs_op *op, int64_t it)
{
  uint64_t bound = cs_units_largest_bytes(G->prm, op->units);
  for (int64_t i = 0; i < it;) {
    int64_t peer = cs_loop_op_peer(G->prm, op, i), run = cs_loop_op_node_run(G->prm, op, i, it - i);
    note_largest_of(G, op, bound, i, run);
    charge(G, cs_rank_node(G->prm, peer), cs_loop_op_bytes(G->prm, op, i, run), (uint64_t)run);
    i += run;
  }
}

static void send_op(gen *G, const cs_op *op, int64_t iterations)
{
  if (iterations <= 0)
    return;
  if (cs_loop_op_fixed_peer(G->prm, op) || iterations == 1)
    send_fixed_peer(G, op, iterations);
  else
    send_moving_peer(G, op, iterations);
}

static void rank_sends(gen *G, const cs_oplist *o)
{
  for (size_t k = 0; k < o->n; k++) {
    const cs_op *op = &o->op[k];
    G->tot->ops++;
    if (op->kind == CS_OP_SEND) {
      send_op(G, op, 1);
    } else if (op->kind == CS_OP_LOOP) {
      for (int64_t b = 1; b <= op->body; b++)
        if (o->op[k + (size_t)b].kind == CS_OP_SEND)
          send_op(G, &o->op[k + (size_t)b], op->iterations);
      G->tot->ops += (uint64_t)op->body;
      k += (size_t)op->body;
    }
  }
}

/* Ranks grouped by node, nodes in increasing order (the identity for the
 * in-order mapping); g_free it. */
static int64_t *ranks_by_node(const cs_sched_params *prm, int64_t nodes)
{
  int64_t *order = g_new(int64_t, prm->p > 0 ? prm->p : 1);
  if (cs_tt_in_order(prm->tt)) {
    for (int64_t r = 0; r < prm->p; r++)
      order[r] = r;
    return order;
  }
  int64_t *start = g_new0(int64_t, nodes + 1);
  for (int64_t r = 0; r < prm->p; r++)
    start[cs_rank_node(prm, r) + 1]++;
  for (int64_t g = 0; g < nodes; g++)
    start[g + 1] += start[g];
  for (int64_t r = 0; r < prm->p; r++)
    order[start[cs_rank_node(prm, r)]++] = r;
  g_free(start);
  return order;
}

void cs_pattern_generate(const cs_coll_algo *a, const cs_sched_params *prm, cs_pair_sink sink, void *sink_user,
                         cs_pattern_totals *totals, cs_pattern_progress_fn progress, void *progress_user)
{
  memset(totals, 0, sizeof *totals);
  gen G = {.prm = prm, .nodes = cs_tt_nodes(prm->tt), .src_node = 0, .sink = sink, .sink_user = sink_user,
           .tot = totals};
  G.bytes = g_new0(uint64_t, G.nodes);
  G.messages = g_new0(uint64_t, G.nodes);
  G.touched = g_new(int64_t, G.nodes);
  int64_t *order = ranks_by_node(prm, G.nodes);
  cs_oplist ops;
  cs_oplist_init(&ops);
  for (int64_t i = 0; i < prm->p; i++) {
    int64_t r = order[i], node = cs_rank_node(prm, r);
    if (node != G.src_node) {
      flush(&G);
      G.src_node = node;
    }
    cs_oplist_clear(&ops);
    a->ops(prm, r, &ops);
    rank_sends(&G, &ops);
    if (progress && ((i + 1) % CS_PATTERN_CHUNK == 0 || i + 1 == prm->p))
      progress(progress_user, i + 1);
  }
  flush(&G);
  cs_oplist_free(&ops);
  g_free(order);
  g_free(G.bytes);
  g_free(G.messages);
  g_free(G.touched);
}
