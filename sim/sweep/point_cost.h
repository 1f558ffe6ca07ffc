/* What a sweep's point will cost, for the sweep's ETA (issue 15, item 4).
 *
 * Before the sweep runs its points, each pending point's command is run once
 * with COLLSIM_PLAN (sim/engine/sg_engine.h): it stops before SimGrid starts
 * and tells its process count n and the messages its progress line counts
 * (0 when not known).  A point's cost, in messages of simulation, is the
 * fixed and variable parts of sim/contracts/run_cost.h (where the fit and its
 * data are), the same estimate that warns of a long run before it starts.
 *
 * Planning stops at POINT_PLAN_BUDGET_S, killing a plan still running then
 * (a command that never reaches the simulation would run whole).
 * A point whose messages are not known (mcmc, shrink-balance) gets n times
 * the messages per process of the points that know theirs (0 if none); a
 * point not planned (its plan failed, or planning ran out of its time
 * budget) gets n from the experiment where it has one, else the mean cost.
 *
 * While a point runs, the sweep follows it through COLLSIM_PROGRESS_LOG: its
 * fixed part counts as done once the log has a line (the simulation has
 * started), its variable part in proportion to the meter's done / total.
 *
 * A plan for a cluster (sweep --plan, sim/sweep/plan.h) needs absolute
 * estimates: seconds = cost x POINT_SECONDS_PER_COST (sim/contracts/run_cost.h,
 * the same seconds the long-run warning uses), and peak memory = POINT_MEMORY_BASE_MIB
 * + POINT_MEMORY_PER_PROCESS_KIB x n (the peak RSS of bench/out/smpi-speed.txt,
 * 56 MiB at 1,024 ranks to 2.8 GiB at 131,072, and trees-131072.txt's 3.1 GiB);
 * a point whose n is not known gets POINT_MEMORY_UNKNOWN_MIB.  Such a plan
 * gives every point its own planning budget (no budget for the whole), so
 * the same experiment always gets the same estimates. */
#ifndef COLLSIM_POINT_COST_H
#define COLLSIM_POINT_COST_H

#include "sim/contracts/run_cost.h"
#include "sim/sweep/experiment.h"

#include <glib.h>

#define POINT_COST_PER_RUN CS_RUN_COST_PER_RUN /* the fit: sim/contracts/run_cost.h */
#define POINT_PLAN_BUDGET_S 5.0 /* planning stops after this long; the rest is estimated */

#define POINT_SECONDS_PER_COST CS_RUN_SECONDS_PER_COST /* wall seconds per message of cost (run_cost.h) */
#define POINT_MEMORY_BASE_MIB 40.0      /* peak memory of a run of no process */
#define POINT_MEMORY_PER_PROCESS_KIB 24.0
#define POINT_MEMORY_UNKNOWN_MIB 1024.0 /* a point whose n is not known */

typedef struct cs_point_cost {
  double fixed;      /* the run's start, in messages */
  double variable;   /* its simulation, in messages */
  int64_t processes; /* n, 0 when not known */
} cs_point_cost;

/* How planning goes: the ETA's way (at most POINT_PLAN_BUDGET_S for all
 * points, a progress line) or a cluster plan's (each point its own budget:
 * deterministic). */
typedef struct cs_plan_budget {
  gboolean per_point; /* POINT_PLAN_BUDGET_S for each point, not for all */
  gboolean quiet;     /* no progress line */
} cs_plan_budget;

/* Costs of the pending points (a cs_point * each), in their order; exe is
 * the program's name for argv[0] (the program run is /proc/self/exe).
 * Draws its own progress line on stderr unless b->quiet.
 * Never fails: a point that cannot be planned is estimated. */
cs_point_cost *cs_point_costs_plan(const cs_experiment *e, GPtrArray *pending, const char *exe,
                                   const cs_plan_budget *b);

static inline double cs_point_cost_total(const cs_point_cost *c) { return c->fixed + c->variable; }
/* Wall seconds and peak memory (MiB) a point is expected to take. */
static inline double cs_point_cost_seconds(const cs_point_cost *c)
{
  return cs_point_cost_total(c) * POINT_SECONDS_PER_COST;
}
static inline double cs_point_cost_peak_mib(const cs_point_cost *c)
{
  return c->processes > 0 ? POINT_MEMORY_BASE_MIB + POINT_MEMORY_PER_PROCESS_KIB * (double)c->processes / 1024.0
                          : POINT_MEMORY_UNKNOWN_MIB;
}

/* How much of c a running point has done, from its COLLSIM_PROGRESS_LOG
 * (0 while the file is empty or missing). */
double cs_point_cost_done(const cs_point_cost *c, const char *log_path);

/* The pure part of planning, for tests: costs from each point's plan
 * (n, messages; n <= 0: not planned) and the experiment's n (0: none). */
void cs_point_costs_estimate(const int64_t *planned_n, const double *planned_messages, const int64_t *point_n,
                             size_t count, cs_point_cost *out);

#endif
