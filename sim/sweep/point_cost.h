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
 * started), its variable part in proportion to the meter's done / total. */
#ifndef COLLSIM_POINT_COST_H
#define COLLSIM_POINT_COST_H

#include "sim/contracts/run_cost.h"
#include "sim/sweep/experiment.h"

#include <glib.h>

#define POINT_COST_PER_RUN CS_RUN_COST_PER_RUN /* the fit: sim/contracts/run_cost.h */
#define POINT_PLAN_BUDGET_S 5.0 /* planning stops after this long; the rest is estimated */

typedef struct cs_point_cost {
  double fixed;    /* the run's start, in messages */
  double variable; /* its simulation, in messages */
} cs_point_cost;

/* Costs of the pending points (a cs_point * each), in their order; exe is
 * the program's name for argv[0] (the program run is /proc/self/exe).
 * Draws its own progress line on stderr (called only when not quiet).
 * Never fails: a point that cannot be planned is estimated. */
cs_point_cost *cs_point_costs_plan(const cs_experiment *e, GPtrArray *pending, const char *exe);

static inline double cs_point_cost_total(const cs_point_cost *c) { return c->fixed + c->variable; }

/* How much of c a running point has done, from its COLLSIM_PROGRESS_LOG
 * (0 while the file is empty or missing). */
double cs_point_cost_done(const cs_point_cost *c, const char *log_path);

/* The pure part of planning, for tests: costs from each point's plan
 * (n, messages; n <= 0: not planned) and the experiment's n (0: none). */
void cs_point_costs_estimate(const int64_t *planned_n, const double *planned_messages, const int64_t *point_n,
                             size_t count, cs_point_cost *out);

#endif
