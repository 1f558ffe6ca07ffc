/* What a simulated run costs in wall time, estimated before it starts
 * (issue 15 for the sweep's ETA, issue 32 for the long-run warning).
 *
 * A run of n processes that will deliver M messages costs
 *
 *     (RUN + PROCESS x n + M) x n^E     "messages of simulation"
 *
 * the fixed part for the start of a run (the process, the platform's hosts,
 * one actor per process), the variable part for its messages, both growing
 * as n^E: SimGrid's wall time per message grows with the number of
 * processes.  Fitted to two sweeps on the 2-core machine of
 * bench/out/eta.txt: the 23 timed runs of experiments/seed001-table2.yaml
 * (0.17 s + 30 us x n + 20 us x M at n = 1,024 and 16,384) and the 22 runs
 * of experiments/seed000-table2.yaml (18 us per message at n = 4,096, 62 us
 * at n = 131,072).  SECONDS_PER_COST turns the unit into wall seconds, fitted
 * to two runs at either end (the geometric mean of their ratios): 20 us per
 * message at n = 4,096 (3.8 us per unit) and bench/out/trees-131072.txt's
 * centralized run at n = 131,072 (69.3 s for 419,227 messages: 10.5 us per
 * unit); both are then within 2x (predicted 1.7x and 0.6x of measured), as
 * is a run of 1,024 processes and 1,023 messages (0.17 s measured, 0.25 s
 * predicted).  Every other run is a
 * prediction (bench/eta.sh measures them). */
#ifndef COLLSIM_RUN_COST_H
#define COLLSIM_RUN_COST_H

#include <math.h>
#include <stdint.h>

#define CS_RUN_COST_PER_RUN 7500.0
#define CS_RUN_COST_PER_PROCESS 1.5
#define CS_RUN_COST_SIZE_EXPONENT 0.2
#define CS_RUN_SECONDS_PER_COST 6.3e-6
/* A run estimated longer than this says so before it starts, --quiet or not. */
#define CS_RUN_WARN_SECONDS 600.0

static inline double cs_run_cost_size_factor(int64_t n) { return pow((double)n, CS_RUN_COST_SIZE_EXPONENT); }

static inline double cs_run_cost_fixed(int64_t n)
{
  return (CS_RUN_COST_PER_RUN + CS_RUN_COST_PER_PROCESS * (double)n) * cs_run_cost_size_factor(n);
}

static inline double cs_run_cost_variable(int64_t n, double messages) { return messages * cs_run_cost_size_factor(n); }

/* Wall seconds a SimGrid run of n processes and `messages` messages takes here. */
static inline double cs_run_seconds_estimate(int64_t n, double messages)
{
  return (cs_run_cost_fixed(n) + cs_run_cost_variable(n, messages)) * CS_RUN_SECONDS_PER_COST;
}

#endif
