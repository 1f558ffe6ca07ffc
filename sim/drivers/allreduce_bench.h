/* The Allreduce benchmark of seed 002 (Figure 4): MPI_Allreduce of one int,
 * implemented as LAM-MPI does, a scripted reduce to the root followed by a
 * scripted broadcast from it; one warm-up Allreduce, then `iterations`
 * timed ones, each checked (iteration i contributes i on every rank, the
 * result must be i * n on every rank).  The two trees run as schedules
 * ("script" collectives) through the timed schedule interpreter, the same
 * one `collsim collective --timed` uses; messages carry the partial sum as
 * their real content, their simulated size is 4 bytes plus the platform's
 * per-message header. */
#ifndef COLLSIM_ALLREDUCE_BENCH_H
#define COLLSIM_ALLREDUCE_BENCH_H

#include "platforms/platform.h"
#include "sim/contracts/tree_script.h"
#include "sim/engine/sg_engine.h"

typedef struct cs_allreduce_result {
  double us_per_allreduce;   /* rank 0's time from the end of the warm-up to the end of the last iteration */
  int messages_per_allreduce;
  int internode_messages_per_allreduce;
  bool result_ok;            /* every rank, every iteration */
  long long wrong_results;
  double sim_time_s;
} cs_allreduce_result;

/* Node of each of the script's n ranks on platform p (g_free it). */
int *cs_allreduce_node_map(const cs_platform *p, int n);

/* ec: engine settings (model, overheads, quiet, ...); the platform file,
 * n, cores and mapping are set here.  p must be resolved for s->n ranks. */
bool cs_allreduce_run(const cs_platform *p, const cs_tree_script *s, int iterations, cs_engine_config *ec,
                      cs_allreduce_result *out, GError **err);

#endif
