/* Timed run of a collective schedule: one SimGrid actor per rank interprets
 * its own op list through the messaging interface (sends eager with a virtual
 * payload of the op's bytes, receives matched by source and tag, gamma
 * seconds of computation per byte combined by a reducing receive). */
#ifndef COLLSIM_COLL_RUN_H
#define COLLSIM_COLL_RUN_H

#include "sim/contracts/schedule.h"
#include "patterns/pattern.h"
#include "sim/engine/sg_engine.h"

typedef struct cs_coll_timed {
  double sim_time_s;
  uint64_t messages, bytes, max_message_bytes;
  uint64_t size_mismatches; /* receives whose message had other bytes than the op says */
  int finished;             /* ranks that reached the end of their ops */
} cs_coll_timed;

/* ec: engine configuration with platform_file set; n and cores are set here
 * (p ranks, cpn per host).  The messages actually sent are aggregated per
 * (source node, destination node) and handed to sink after the run (NULL: not
 * recorded), in the same order as the pattern-generator's. */
bool cs_coll_run_timed(const cs_coll_algo *a, const cs_sched_params *prm, cs_engine_config *ec, double gamma,
                       cs_pair_sink sink, void *sink_user, cs_coll_timed *out, GError **err);

#endif
