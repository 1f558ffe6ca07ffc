/* The collective pipeline's native-engine side (sim/drivers/collective.c
 * calls it beside the SimGrid timed run): a schedule - an algorithm's op
 * lists or a GOAL graph - run under LogGOPS, its messages added to a digest
 * per (source node, destination node) and charged to a per-link counter as the
 * SimGrid run's are, and the untimed pattern of a GOAL graph. */
#ifndef COLLSIM_DRIVER_NATIVE_RUN_H
#define COLLSIM_DRIVER_NATIVE_RUN_H

#include "patterns/linkusage.h"
#include "patterns/pattern.h"
#include "sim/contracts/netmap.h"
#include "sim/contracts/goal.h"
#include "sim/engine/native/loggops.h"
#include "sim/engine/sched_interp.h"

/* The traffic per (source node, destination node), as a digest that does
 * not depend on the order messages are added in nor on how they are
 * grouped: totals, and sums of bytes and messages weighted by a 64-bit
 * hash of the pair (mod 2^64).  Two runs with the same traffic per pair
 * have equal digests; traffic moved between pairs changes them (but for a
 * chance of about 2^-64), in constant memory where a table of pairs would
 * take p^2 entries for an alltoall. */
typedef struct cs_pair_digest {
  uint64_t bytes, messages, weighted_bytes, weighted_messages;
} cs_pair_digest;

static inline uint64_t cs_pair_hash(int64_t src, int64_t dst)
{
  uint64_t x = (uint64_t)src * 0x9E3779B97F4A7C15ull ^ (uint64_t)dst * 0xC2B2AE3D27D4EB4Full;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return x | 1;
}

static inline void cs_pair_digest_add(cs_pair_digest *d, int64_t src, int64_t dst, uint64_t bytes, uint64_t messages)
{
  uint64_t h = cs_pair_hash(src, dst);
  d->bytes += bytes;
  d->messages += messages;
  d->weighted_bytes += h * bytes;
  d->weighted_messages += (h ^ 0x5555555555555555ull) * messages;
}

static inline bool cs_pair_digest_equal(const cs_pair_digest *a, const cs_pair_digest *b)
{
  return a->bytes == b->bytes && a->messages == b->messages && a->weighted_bytes == b->weighted_bytes &&
         a->weighted_messages == b->weighted_messages;
}

typedef struct cs_native_timed {
  const cs_coll_algo *algo;  /* either the algorithm (with prm) ... */
  const cs_sched_params *prm;
  const cs_goal_graph *goal; /* ... or a GOAL graph */
  const cs_two_tier *tt;     /* the ranks' nodes */
  double gamma;              /* seconds per byte reduced (algorithms) */
  cs_loggops_params model;   /* model.links: serialised on map's links (model.net is set by the run) */
  const cs_netmap *map;      /* the platform's links and routes (model.links); NULL: none */
  cs_linkusage *delivered;   /* NULL: not counted; else charged node to node per message received */
  cs_pair_digest *pairs;     /* the messages delivered, added per node pair; NULL: none */
  const cs_engine_config *ec; /* its tracer (--trace, --timeline) gets every message; NULL: none.  A
                                 message's t_send: its send started (before the send overhead o);
                                 t_recv: its receive matched it (LogGOPS charges the receiver's o
                                 on arrival, before); hosts: the ranks' nodes; phase algo, ctx 0 */
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
