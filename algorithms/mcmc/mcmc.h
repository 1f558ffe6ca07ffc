/* The MCMC load-balancing benchmark of seed 004 (Dinan et al.,
 * "Noncollective Communicator Creation in MPI", Section 4.2): walker
 * groups of processes work through Markov chains of unequal length, and
 * load balancing regroups finished walkers with busy ones.  One balancing
 * mode per file (balance_none.c, balance_async.c, balance_collective.c),
 * registered in algorithms/mcmc/registry.c; they talk only to the
 * messaging interface and the communicator layer.
 *
 * THE WORKLOAD (the paper's, every rule here a parameter):
 *  - n processes in initial walker groups of G consecutive ranks (the last
 *    group may be smaller when G does not divide n); the group whose leader
 *    (lowest rank) is R owns a chain of S = s_mult x (R mod s_mod) work items
 *    (paper: 10 x (R mod 32), so 0, 40, ..., 280 for G = 4);
 *  - an item takes T / size seconds on every process of the group working on
 *    it (T = 100 ms), all processes in parallel: a step;
 *  - baseline time S_max x T / G (7 s), the ideal sum(S) x T / n (3.5 s).
 *
 * GROUPS are ranges of consecutive ranks [lo, hi]; the leader is lo.  A
 * group works on one chain; when two groups merge, the merged group is the
 * union of the two ranges in rank order and continues the chain of the
 * group that still had work.  A group whose chain is empty is finished.
 *
 * TIMING NOISE (--jitter j): each step of each process lasts T / size x
 * (1 + j u), u uniform in [-1, 1] from (seed, rank, the process's step
 * count): deterministic for a seed.  j = 0 is the paper's idealised model.
 *
 * REGROUPINGS (Table 1): the group communicators a process takes part in
 * creating, the initial walker group included.  The none mode creates no
 * communicator (its steps need none), so it counts 0, as the paper's
 * Table 1 does; the collective rows of Table 1 (mean 5.38 = the 8, 8, 7,
 * ..., 2 of a period of 8 groups) count the initial creation.
 */
#ifndef COLLSIM_MCMC_H
#define COLLSIM_MCMC_H

#include "algorithms/communicators/intercomm.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct cs_mcmc_config {
  int64_t n;          /* processes */
  int g;              /* initial walker group size G */
  double t_item;      /* T: seconds of one item on one process */
  int s_mult, s_mod;  /* S = s_mult x (R mod s_mod) */
  int interval;       /* collective: balance every `interval` steps */
  double jitter;      /* relative per-step noise */
  uint64_t seed;
  const char *create_impl; /* async: "intercomm" (Algorithm 1) or "direct" */
  /* Failure (Section 2.1; recovery.c): rank fail_rank (-1: none) fails at
   * fail_at; the survivors rebuild a communicator with `rebuild`
   * ("intercomm", "direct" or "parent") detect seconds after it. */
  int fail_rank;
  double fail_at, detect;
  const char *rebuild;
} cs_mcmc_config;

/* What every process records, read by the driver after the run. */
typedef struct cs_mcmc_proc {
  int64_t steps;        /* items this process worked on */
  int64_t items_led;    /* items its group finished while it was the leader */
  int regroupings;      /* group communicators it took part in creating */
  double finished_at;   /* when its part was over */
  int64_t lo, hi;       /* its last group */
  bool done;            /* it ended with no work left anywhere it could reach */
  int rebuilt_size;     /* failure: the allreduce over the rebuilt communicator (-1: none) */
} cs_mcmc_proc;

/* Shared by the processes of one run (the simulator's, not a process's). */
typedef struct cs_mcmc_run {
  const cs_mcmc_config *cfg;
  cs_world *world;
  cs_ctxids *ids;       /* MPICH's context-id masks */
  cs_mcmc_proc *procs;  /* per rank */
} cs_mcmc_run;

typedef void (*cs_mcmc_balance_fn)(cs_proc *p, cs_mcmc_run *run);

typedef struct cs_mcmc_balance {
  const char *name;        /* "none", "async", "collective" */
  const char *description;
  cs_mcmc_balance_fn run;  /* the whole life of one process */
  /* What the mode does, for the driver's check and record: */
  bool silent;             /* sends no message at all (the baseline) */
  bool regroups_every_interval; /* regroups every `interval` steps (cs_mcmc_config.interval) */
  bool creates_groups;     /* builds groups by group-collective creation (cs_mcmc_config.create_impl) */
} cs_mcmc_balance;

size_t cs_mcmc_balance_count(void);
const cs_mcmc_balance *cs_mcmc_balance_at(size_t i);
const cs_mcmc_balance *cs_mcmc_balance_find(const char *name);

/* ---- the workload (walker.c) ---- */

/* The initial group of rank r: [lo, hi]. */
void cs_mcmc_initial_group(const cs_mcmc_config *c, int64_t r, int64_t *lo, int64_t *hi);
/* Items of the chain of the initial group led by R. */
int64_t cs_mcmc_chain_items(const cs_mcmc_config *c, int64_t leader);
/* Total items, the baseline S_max T / G and the ideal sum(S) T / n. */
int64_t cs_mcmc_total_items(const cs_mcmc_config *c);
double cs_mcmc_baseline_s(const cs_mcmc_config *c);
double cs_mcmc_ideal_s(const cs_mcmc_config *c);
/* One step of process p in a group of `size`: T / size with its noise. */
void cs_mcmc_step(cs_proc *p, cs_mcmc_run *run, int64_t size);
/* The end of p's work, its last group being [lo, hi]: recorded for the
 * driver. */
void cs_mcmc_finish(cs_proc *p, cs_mcmc_run *run, int64_t lo, int64_t hi);
/* The simulator's memo key of the group [lo, hi] (comm.h): the same on every
 * member, distinct per range, low 22 bits zero (Algorithm 1 adds its round
 * and pair there).  lo, hi < 2^17. */
uint64_t cs_mcmc_range_key(int64_t lo, int64_t hi);
/* The group [lo, hi] as world ranks (cs_alloc'd: cs_free it). */
cs_wid *cs_mcmc_range(cs_proc *p, int64_t lo, int64_t hi);

/* After a process's work: when the run has a failure, the recovery of
 * recovery.c (rebuild over the live processes, then an allreduce). */
void cs_mcmc_recover(cs_proc *p, cs_mcmc_run *run);

/* Tags on MPI_COMM_WORLD (below the communicator layer's reserved range). */
#define CS_MCMC_TAG_REQUEST 101   /* a finished group asks the group on its right to merge */
#define CS_MCMC_TAG_REPLY 102     /* the answer */
#define CS_MCMC_TAG_CREATE (1 << 20) /* + the new group's leader: its creation's tag */
#define CS_MCMC_TAG_REBUILD 103   /* the rebuild after a failure */

#endif
