/* The collective pipeline's native-engine side (sim/drivers/collective.c
 * calls it beside the SimGrid timed run): a schedule - an algorithm's op
 * lists or a GOAL graph - run under LogGOPS, its messages tallied per
 * (source node, destination node) and charged to a per-link counter as the
 * SimGrid run's are, and the untimed pattern of a GOAL graph. */
#ifndef COLLSIM_DRIVER_NATIVE_RUN_H
#define COLLSIM_DRIVER_NATIVE_RUN_H

#include "patterns/linkusage.h"
#include "patterns/pattern.h"
#include "sim/contracts/goal.h"
#include "sim/engine/native/loggops.h"
#include "sim/engine/sched_interp.h"

typedef struct cs_native_timed {
  const cs_coll_algo *algo;  /* either the algorithm (with prm) ... */
  const cs_sched_params *prm;
  const cs_goal_graph *goal; /* ... or a GOAL graph */
  const cs_two_tier *tt;     /* the ranks' nodes */
  double gamma;              /* seconds per byte reduced (algorithms) */
  cs_loggops_params model;
  cs_linkusage *delivered;   /* NULL: not counted; else charged node to node per message received */
  cs_pair_sink sink;         /* the node pairs' traffic, in increasing (src, dst) order; NULL: none */
  void *sink_user;
} cs_native_timed;

/* out: the run's time and counters (finished = every rank); last_rank:
 * the rank finishing last, finish_ns its time in nanoseconds. */
bool cs_native_timed_run(const cs_native_timed *run, cs_coll_timed *out, uint32_t *last_rank, uint64_t *finish_ns,
                         GError **err);

/* The traffic of a GOAL graph's sends, per node pair in increasing order,
 * to sink; totals as the pattern-generator's. */
void cs_goal_pattern(const cs_goal_graph *g, const cs_two_tier *tt, cs_pair_sink sink, void *user,
                     cs_pattern_totals *tot);

#endif
