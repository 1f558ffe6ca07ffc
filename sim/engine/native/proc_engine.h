/* The native engine for processes: the transport seam
 * (sim/contracts/transport.h) on a discrete-event loop, every simulated
 * process a coroutine (coro.h), messages timed point to point by LogGP /
 * LogGOPS (the rules are at the top of proc_engine.c).  What the SimGrid
 * backend (sim/engine/sg_engine.h) is for processes, without a platform,
 * flows or SimGrid. */
#ifndef COLLSIM_NATIVE_PROC_ENGINE_H
#define COLLSIM_NATIVE_PROC_ENGINE_H

#include "sim/contracts/transport.h"
#include "sim/engine/native/loggops.h"

#include <glib.h>

typedef struct cs_pe_config {
  int n;                     /* processes */
  cs_loggops_params loggops; /* LogGOPSim's units (ns, ns/byte, bytes) */
  size_t stack_bytes;        /* each process's stack */
  /* Hosts: rank r on host host_of[r], or r / cores when host_of is NULL.
   * They matter only with shared_cpu: the ranks of a host take turns on
   * its one processor (first come, first served), else each rank has a
   * processor of its own. */
  const int *host_of;
  int cores;
  bool shared_cpu;
  /* Called on every send, as cs_proc.observer (or NULL). */
  cs_send_observer observer;
  void *observer_user;
  /* Called when a process takes a message (after its receive overhead, at
   * t_recv seconds), or NULL. */
  void (*on_take)(void *user, const cs_proc *p, const cs_msg *m, double t_recv);
  void *on_take_user;
  /* Unless quiet: a progress line on stderr from the first second on,
   * messages delivered against progress_messages (0: not known, no ETA). */
  bool quiet;
  double progress_messages;
} cs_pe_config;

/* A process found waiting forever: blocked in cs_recv_ctx for (src, ctx,
 * tag). */
typedef struct cs_pe_stuck {
  int rank, src;
  uint32_t ctx;
  int tag;
} cs_pe_stuck;

typedef struct cs_pe_outcome {
  int retired;          /* processes that reached cs_serve */
  bool deadlocked;      /* the run stopped with some live process not retired */
  cs_pe_stuck *stuck;   /* in rank order (g_free it), nstuck entries */
  int nstuck;
  double clock_s;       /* simulated time when the run ended */
  uint64_t messages;    /* delivered */
  uint64_t switches;    /* coroutine resumes */
} cs_pe_outcome;

/* Runs fn(procs[r], user) for every rank r as coroutines until quiescence
 * (every live process serving, nothing in flight) or a deadlock (outcome
 * says which).  procs must hold c->n entries; they are initialised here.
 * False (CS_INTERNAL_ERROR) only if the stacks cannot be mapped. */
bool cs_pe_run(const cs_pe_config *c, cs_proc *procs, void (*fn)(cs_proc *p, void *user), void *user,
               cs_pe_outcome *out, GError **err);

#endif
