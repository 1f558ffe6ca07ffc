/* The messaging half of seed 003's Section 8 benchmark, run by every member
 * of a new communicator right after its creation (sim/drivers/comm_run.c):
 * `messages` point-to-point messages between random member pairs (the same
 * list on every member, drawn from the seed), then a barrier of the
 * communicator (the paper's "synchronization at the end of messaging"),
 * then `gathers` gathers of 4 bytes per member to group rank 0.
 * The algorithms are the communicator layer's (binomial gather, recursive-
 * doubling barrier); every send translates its destination with the map
 * (charged: the representation's S-One). */
#ifndef COLLSIM_COMM_BENCH_H
#define COLLSIM_COMM_BENCH_H

#include "sim/contracts/comm_coll.h"

typedef struct cs_bench_plan cs_bench_plan;

/* Pairs among m group ranks, drawn from seed (src != dst). */
cs_bench_plan *cs_bench_plan_new(int64_t m, int64_t messages, int gathers, uint64_t seed);
void cs_bench_plan_free(cs_bench_plan *b);

/* Phase ends (simulated seconds) of one member. */
typedef struct cs_bench_times {
  double p2p_end, gather_end;
  bool gather_wrong; /* at group rank 0: a gathered word not its sender's rank */
} cs_bench_times;

void cs_bench_member(cs_proc *p, cs_comm *c, const cs_bench_plan *b, cs_bench_times *t);

#endif
