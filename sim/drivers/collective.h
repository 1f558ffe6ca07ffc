/* The collective pipeline (seed 001): one linear function from (platform,
 * algorithm, size, what to compute) to a result record.
 *
 *   schedule setup (plan) -> [replay: every rank ends with what it must]
 *     -> pattern-generator (node-pair traffic) -> [linkUsage: bytes per link
 *     and tier] -> [timed SimGrid run, checked against the pattern node pair
 *     by node pair] -> cost model -> record
 *
 * A session holds what several runs on one platform share (the platform's
 * XML, the engine settings, the routes), so `--batch` loads the platform
 * once.  Nothing here parses a command line or prints: the CLI
 * (sim/cli/cli_collective.c) and the sweeps call it. */
#ifndef COLLSIM_DRIVER_COLLECTIVE_H
#define COLLSIM_DRIVER_COLLECTIVE_H

#include "platforms/platform.h"
#include "sim/drivers/record.h"
#include "sim/contracts/goal.h"
#include "sim/contracts/schedule.h"
#include "sim/contracts/tree_script.h"
#include "sim/engine/native/loggops.h"
#include "sim/engine/sched_interp.h"

typedef struct cs_coll_session cs_coll_session;

typedef struct cs_coll_options {
  bool links;       /* route the traffic: per-link and per-tier bytes */
  bool timed;       /* run on SimGrid actors */
  bool verify;      /* replay the schedule */
  double gamma;     /* seconds per byte combined (timed runs and the cost model) */
  bool quiet;       /* no progress on stderr */
  bool native;      /* timed runs on the native engine (LogGOPS, sim/engine/native) instead of SimGrid */
  cs_loggops_params loggops;
  int64_t ranks;    /* without a platform (native engine only): the ranks, on a flat machine of one rank per node */
} cs_coll_options;

/* ec: engine settings (model, overheads, ...) for timed runs; copied.  The
 * platform must be resolved for its full size (every core a rank); it may
 * be NULL for the native engine (o->ranks ranks, no links). */
cs_coll_session *cs_coll_session_open(const cs_platform *p, const cs_coll_options *o, const cs_engine_config *ec,
                                      GError **err);
void cs_coll_session_close(cs_coll_session *s);

typedef struct cs_coll_item {
  const cs_coll_algo *algo;
  uint64_t size;                  /* block for per-rank collectives, whole buffer otherwise */
  const cs_tree_script *script;   /* the "script" algorithms */
  uint64_t segment;               /* the segmented broadcasts (pipeline, chain, bintree): bytes, 0 = none */
  /* --algo auto: the selector that chose algo, the collective it chose for,
   * and its rule (the selector and selected_by columns); NULL otherwise */
  const struct cs_selector *selector;
  cs_coll auto_coll;
  char selected_by[512];
  const cs_goal_graph *goal;      /* instead of algo: a GOAL schedule (goal_name names it) */
  const char *goal_name;
} cs_coll_item;

typedef struct cs_coll_outputs {
  GString *pairs;     /* node-to-node pattern CSV, or NULL */
  GString *per_link;  /* every link's bytes and messages CSV, or NULL (needs links) */
  const char *goal;   /* write the schedule of every rank as GOAL text here, or NULL (algorithms) */
} cs_coll_outputs;

/* One collective; its record (free it) or NULL with err: CS_INPUT_ERROR for
 * bad input (a size the algorithm cannot divide, a script for another p),
 * anything else an internal failure (a failed replay, a timed run that does
 * not match its schedule). */
cs_record *cs_coll_run(cs_coll_session *s, const cs_coll_item *it, cs_coll_outputs *out, GError **err);

/* The CSV columns of a collective's record. */
extern const cs_record_kind cs_coll_record_kind;

#endif
