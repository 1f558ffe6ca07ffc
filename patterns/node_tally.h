/* Traffic from one source node at a time, summed per destination node:
 * the accumulator of the pattern-generator (pattern.c) and of a GOAL
 * schedule's pattern (sim/drivers/native_run.c).  Its arrays have the
 * nodes' size, so memory grows with the nodes, not with the node pairs
 * (an alltoall has nodes^2 of them).  Pairs reach the sink by increasing
 * source node (the caller visits ranks grouped by node: cs_ranks_by_node),
 * then increasing destination node. */
#ifndef COLLSIM_NODE_TALLY_H
#define COLLSIM_NODE_TALLY_H

#include "sim/contracts/schedule.h"

typedef struct cs_node_tally {
  int64_t nodes, src;
  uint64_t *bytes, *messages; /* per destination node, for source node src */
  int64_t *touched, ntouched; /* destinations with traffic, in first-touch order */
  cs_pair_sink sink;          /* may be NULL: the pairs are dropped */
  void *sink_user;
} cs_node_tally;

void cs_node_tally_init(cs_node_tally *t, int64_t nodes, cs_pair_sink sink, void *sink_user);
void cs_node_tally_free(cs_node_tally *t);

/* messages (at least 1) of bytes in all from the current source to dst. */
static inline void cs_node_tally_add(cs_node_tally *t, int64_t dst, uint64_t bytes, uint64_t messages)
{
  if (t->messages[dst] == 0)
    t->touched[t->ntouched++] = dst;
  t->bytes[dst] += bytes;
  t->messages[dst] += messages;
}

/* The current source's pairs to the sink; then the source is src. */
void cs_node_tally_next_source(cs_node_tally *t, int64_t src);
/* The current source's pairs to the sink (after the last rank). */
void cs_node_tally_flush(cs_node_tally *t);

/* The p ranks grouped by node of tt, nodes in increasing order, ranks of a
 * node in increasing order (the identity for the in-order mapping);
 * g_free it. */
int64_t *cs_ranks_by_node(const cs_two_tier *tt, int64_t p);

#endif
