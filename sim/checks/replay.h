/* Semantic check of a collective schedule: replays every rank's operations
 * (untimed), tracking which data units each rank holds and, for reductions,
 * which ranks' contributions each partial sum contains, and proves that at
 * the end every rank holds exactly what the collective requires (see
 * sim/contracts/schedule.h for the start and end states).
 *
 * Errors found (each reported naming the rank, the op and the units):
 *  - a send of units the sender does not hold;
 *  - a receive whose matching message (same source and tag) names other
 *    units, or that never gets a message (deadlock: every rank blocked);
 *  - a contribution added twice into one partial sum;
 *  - two messages with the same (sender, receiver, tag);
 *  - a message never received;
 *  - a rank missing part of its result.
 * Partial sums are tracked as (number of contributions, sum of per-rank random
 * 64-bit weights), so a missing and a doubled contribution cannot cancel out
 * except with probability 2^-64.
 *
 * Memory: p * nunits bits for data collectives, 16 bytes per (rank, unit)
 * for reductions; meant for the test shapes (p * nunits up to ~10^7). */
#ifndef COLLSIM_REPLAY_H
#define COLLSIM_REPLAY_H

#include "sim/contracts/schedule.h"

typedef struct cs_replay_stats {
  uint64_t messages;        /* sends */
  uint64_t bytes;           /* bytes sent */
  uint64_t internode_bytes; /* bytes sent between different nodes */
  uint64_t reduced_bytes;   /* bytes combined by RECV_REDUCE (the gamma term) */
  uint64_t max_ops_per_rank;
} cs_replay_stats;

/* Bytes the replay's state takes for prm (data held and partial sums;
 * messages in flight and op lists come on top). */
double cs_replay_state_bytes(const cs_sched_params *prm);

/* prm as set up by cs_sched_setup.  Returns false with a message on the
 * first error found. */
bool cs_replay(const cs_coll_algo *a, const cs_sched_params *prm, cs_replay_stats *st, GError **err);

#endif
