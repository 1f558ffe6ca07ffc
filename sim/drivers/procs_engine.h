/* One entry point for the drivers that run processes (tree, comm, mcmc):
 * SimGrid's engine (sim/engine/sg_engine.h) or the native one
 * (sim/engine/native/proc_engine.h), chosen by cs_procs_engine, with the
 * same configuration, hooks and outcome queries for both. */
#ifndef COLLSIM_PROCS_ENGINE_H
#define COLLSIM_PROCS_ENGINE_H

#include "sim/engine/native/loggops.h"
#include "sim/engine/sg_engine.h"

typedef struct cs_procs_engine {
  bool native;               /* false: SimGrid */
  cs_loggops_params loggops; /* the native engine's model */
} cs_procs_engine;

/* cs_engine_run on the chosen engine.  The native engine takes from c: n,
 * host_of / cores (hosts of the delivery hooks and of shared_cpu),
 * stack_kib, shared_cpu, the observer and the delivery hooks; it refuses
 * (CS_INPUT_ERROR) process failure, SimGrid's MPI semantics, --cfg
 * settings, a context factory and cross-traffic, and ignores what only
 * SimGrid's network models (the platform's links, model, overheads,
 * fifo_channels, recv_window, host_channels, local_copy_bw). */
gboolean cs_procs_run(const cs_procs_engine *e, const cs_engine_config *c, cs_proc *procs, cs_proc_main_fn fn,
                      void *user, GError **err);

/* The last cs_procs_run's outcome, on whichever engine ran it (as
 * cs_engine_retired, cs_engine_deadlocked, cs_engine_stuck,
 * cs_engine_clock). */
int cs_procs_retired(void);
bool cs_procs_deadlocked(void);
const cs_stuck *cs_procs_stuck(int *count);
double cs_procs_clock(void);
/* "rank R waits for a message from S (context C, tag T)" for the first
 * stuck process, or NULL when none is (g_free it). */
char *cs_procs_first_stuck(void);

#endif
