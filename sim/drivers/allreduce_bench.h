/* The Allreduce benchmark of seed 002 (Figure 4): MPI_Allreduce of one int,
 * implemented as LAM-MPI does, a scripted reduce to rank 0 followed by a
 * scripted broadcast from rank 0; one warm-up Allreduce, then `iterations`
 * timed ones, each checked (iteration i contributes i on every rank, the
 * result must be i * n on every rank). */
#ifndef COLLSIM_ALLREDUCE_RUN_H
#define COLLSIM_ALLREDUCE_RUN_H

#include "platforms/smp_cluster.h"
#include "sim/engine/sg_engine.h"
#include "sim/contracts/tree_script.h"

typedef struct cs_allreduce_result {
  double us_per_allreduce;   /* rank 0's time from the end of the warm-up to the end of the last iteration */
  int messages_per_allreduce;
  int internode_messages_per_allreduce;
  bool result_ok;            /* every rank, every iteration */
  long long wrong_results;
  double sim_time_s;
} cs_allreduce_result;

/* ec: engine defaults (model, quiet, ...); platform, n, mapping and
 * overheads are set here from the cluster. */
bool cs_allreduce_run(const cs_smp_cluster *c, const cs_tree_script *s, int iterations, cs_engine_config *ec,
                      cs_allreduce_result *out, GError **err);

#endif
