/* The pattern-generator (seed 001, Section 3): the exchanges of a schedule,
 * aggregated per (source node, destination node), untimed.
 *
 * Ranks are visited in order, each rank's ops produced on demand and only its
 * sends looked at; exchanges are summed per destination node while the source
 * node stays the same (ranks are mapped in order), then handed to a sink
 * (linkUsage), one call per node pair with traffic.  Loops are summed without
 * being unrolled where their peer is fixed, and in runs of same-node peers
 * otherwise, so a ring allgather over a million ranks costs O(p). */
#ifndef COLLSIM_PATTERN_H
#define COLLSIM_PATTERN_H

#include "sim/contracts/schedule.h"


typedef struct cs_pattern_totals {
  uint64_t messages, bytes;
  uint64_t max_message_bytes;
  uint64_t ops; /* ops produced, loops counted once */
} cs_pattern_totals;

#define CS_PATTERN_CHUNK 4096

/* Called after every CS_PATTERN_CHUNK ranks and after the last rank with the number of ranks done (for a progress
 * line), or NULL. */
typedef void (*cs_pattern_progress_fn)(void *user, int64_t ranks_done);

/* Node pairs reach the sink by increasing source node, then increasing
 * destination node. */
void cs_pattern_generate(const cs_coll_algo *a, const cs_sched_params *prm, cs_pair_sink sink, void *sink_user,
                         cs_pattern_totals *totals, cs_pattern_progress_fn progress, void *progress_user);

#endif
