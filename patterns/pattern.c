/* The pattern-generator: see pattern.h. */
#include "patterns/pattern.h"
#include "patterns/node_tally.h"

#include <string.h>

typedef struct gen {
  const cs_sched_params *prm;
  cs_node_tally tally; /* the current source node's traffic per destination node */
  cs_pattern_totals *tot;
  bool uniform;        /* the buffer's units all have unit_bytes bytes (asked once: it divides) */
  uint64_t unit_bytes;
} gen;

static void charge(gen *G, int64_t dst_node, uint64_t bytes, uint64_t messages)
{
  cs_node_tally_add(&G->tally, dst_node, bytes, messages);
  G->tot->messages += messages;
  G->tot->bytes += bytes;
}

static uint64_t op_bytes(const gen *G, const cs_op *op, int64_t i)
{
  cs_op e = cs_op_at_iteration(G->prm, op, i);
  return cs_units_bytes(G->prm, e.units);
}

/* cs_loop_op_bytes, in a multiplication on a buffer of uniform units. */
static uint64_t loop_bytes(const gen *G, const cs_op *op, int64_t i0, int64_t count)
{
  if (G->uniform)
    return (uint64_t)count * (uint64_t)cs_units_count(op->units) * G->unit_bytes;
  return cs_loop_op_bytes(G->prm, op, i0, count);
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
  if (op->unit_step == 0 || G->uniform) {
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
  uint64_t bytes = loop_bytes(G, op, 0, it);
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
    charge(G, cs_rank_node(G->prm, peer), loop_bytes(G, op, i, run), (uint64_t)run);
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

void cs_pattern_generate(const cs_coll_algo *a, const cs_sched_params *prm, cs_pair_sink sink, void *sink_user,
                         cs_pattern_totals *totals, cs_pattern_progress_fn progress, void *progress_user)
{
  memset(totals, 0, sizeof *totals);
  gen G = {.prm = prm, .tot = totals, .uniform = cs_units_uniform(prm)};
  G.unit_bytes = G.uniform ? cs_unit_bytes(prm, 0) : 0;
  cs_node_tally_init(&G.tally, cs_tt_nodes(prm->tt), sink, sink_user);
  int64_t *order = cs_ranks_by_node(prm->tt, prm->p);
  cs_oplist ops;
  cs_oplist_init(&ops);
  for (int64_t i = 0; i < prm->p; i++) {
    int64_t r = order[i];
    cs_node_tally_next_source(&G.tally, cs_rank_node(prm, r));
    cs_oplist_clear(&ops);
    a->ops(prm, r, &ops);
    rank_sends(&G, &ops);
    if (progress && ((i + 1) % CS_PATTERN_CHUNK == 0 || i + 1 == prm->p))
      progress(progress_user, i + 1);
  }
  cs_node_tally_flush(&G.tally);
  cs_oplist_free(&ops);
  g_free(order);
  cs_node_tally_free(&G.tally);
}
