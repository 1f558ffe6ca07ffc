/* The timed schedule interpreter: one SimGrid actor per rank interprets its
 * own op list through the messaging interface (sends eager with a virtual
 * payload of the op's bytes plus a per-message header, receives matched by
 * source and tag, any-order groups of receives matched in order of arrival,
 * gamma seconds of computation per byte combined by a reducing receive).
 *
 * One run executes a sequence of phases (schedules over the same ranks),
 * repeated: `collsim collective` runs one phase once; the Allreduce
 * benchmark of seed 002 runs [reduce tree, broadcast tree] 1 + iterations
 * times.  Tags of phase k in repetition i are the op's tag plus
 * (i * nphases + k) * tag_stride, so repetitions never mix.
 *
 * Hooks let a driver carry real values in the messages (the Allreduce's
 * partial sums) and take timestamps, without knowing the engine. */
#ifndef COLLSIM_SCHED_INTERP_H
#define COLLSIM_SCHED_INTERP_H

#include "patterns/linkusage.h"
#include "sim/contracts/schedule.h"
#include "sim/engine/sg_engine.h"

typedef struct cs_coll_timed {
  double sim_time_s;
  uint64_t messages, bytes, max_message_bytes;
  uint64_t size_mismatches; /* receives whose message had other bytes than the op says */
  uint64_t stray_messages;  /* any-order receives that took a message from outside their group */
  int finished;             /* ranks that reached the end of their ops */
} cs_coll_timed;

typedef struct cs_interp_phase {
  const cs_coll_algo *algo;
  const cs_sched_params *prm;
} cs_interp_phase;

/* Callbacks, each optional.  `phase` indexes the run's phases. */
typedef struct cs_interp_hooks {
  /* Rank p is about to start repetition `rep`. */
  void (*on_start)(void *user, cs_proc *p, int64_t rep);
  /* Real content of a message being sent (at most cap bytes); returns its length. */
  size_t (*payload)(void *user, cs_proc *p, int64_t rep, int phase, const cs_op *op, void *buf, size_t cap);
  /* A message received by op, with its real content. */
  void (*on_receive)(void *user, cs_proc *p, int64_t rep, int phase, const cs_op *op, const cs_msg *m);
  /* Rank p finished every repetition. */
  void (*on_end)(void *user, cs_proc *p);
} cs_interp_hooks;

#define CS_INTERP_PAYLOAD_MAX 64

typedef struct cs_interp_run {
  const cs_interp_phase *phases;
  int nphases;
  int64_t repetitions;     /* >= 1 */
  int32_t tag_stride;      /* > every tag + loop iteration the phases use */
  double gamma;            /* seconds per byte combined */
  uint64_t header_bytes;   /* simulated bytes added to every message */
  const cs_interp_hooks *hooks;
  void *user;
  /* The messages actually sent, aggregated per (source node, destination
   * node) by the platform's mapping, handed to sink after the run in the
   * pattern-generator's order (NULL: not recorded). */
  cs_pair_sink sink;
  void *sink_user;
  /* Traffic per link of the messages actually delivered (NULL: not
   * counted): each message a receiver took is charged, without the header,
   * one message, from its sender's host to its receiver's (engine host
   * indices, sg_engine.h), to this counter, whose route function decides
   * the links (collsim: SimGrid's own route, cs_routes_get_direct). */
  cs_linkusage *delivered;
} cs_interp_run;

/* ec: engine configuration with platform_file, cores and host mapping set;
 * n is set here (the phases' p, all equal). */
bool cs_sched_run_timed(const cs_interp_run *run, cs_engine_config *ec, cs_coll_timed *out, GError **err);

/* One collective, once (the common case); delivered may be NULL. */
bool cs_coll_run_timed(const cs_coll_algo *a, const cs_sched_params *prm, cs_engine_config *ec, double gamma,
                       cs_pair_sink sink, void *sink_user, cs_linkusage *delivered, cs_coll_timed *out,
                       GError **err);

#endif
