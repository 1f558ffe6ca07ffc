/* One run of seed 004's MCMC load-balancing benchmark (algorithms/mcmc/):
 * n processes on a platform, one balancing mode, timed in SimGrid; the
 * work is verified conserved and the regroupings summarised (Table 1). */
#ifndef COLLSIM_MCMC_RUN_H
#define COLLSIM_MCMC_RUN_H

#include "algorithms/mcmc/mcmc.h"
#include "sim/drivers/record.h"
#include "sim/drivers/procs_engine.h"

typedef struct cs_mcmc_params {
  cs_mcmc_config cfg;
  const cs_mcmc_balance *balance;
  int ranks_per_host;
  const char *platform_desc;
  cs_engine_config engine;
  cs_procs_engine procs;      /* SimGrid (default) or the native engine */
} cs_mcmc_params;

typedef struct cs_mcmc_result {
  bool verified;
  char *why;                  /* first verification failure, or NULL */
  double time_s;              /* when the last process's work ended */
  double ideal_s, baseline_s;
  double sim_time_s, wall_s;
  double regroupings_mean, regroupings_sd; /* over processes; sd of the population */
  int regroupings_min, regroupings_max;
  int64_t items;              /* work items done, counted by the group leaders */
  uint64_t messages, bytes;
  /* failure runs */
  bool deadlocked;            /* the rebuild never completed (the engine found every survivor waiting) */
  int stuck;                  /* processes stuck in a receive */
  char *stuck_example;        /* "rank R waits for rank S (tag T)", the first stuck rank */
  int rebuilt_min;            /* smallest allreduce result over the survivors (-1: none rebuilt) */
  uint64_t dropped_sends;     /* sends to the failed process */
} cs_mcmc_result;

/* 0 success, 1 internal failure or failed verification, 2 bad input. */
int cs_mcmc_bench_run(const cs_mcmc_params *prm, cs_mcmc_result *res, GError **err);
void cs_mcmc_result_clear(cs_mcmc_result *r);
cs_record *cs_mcmc_result_record(const cs_mcmc_params *prm, const cs_mcmc_result *res);
extern const cs_record_kind cs_mcmc_record_kind;

#endif
