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

/* What went wrong, for callers that word it their own way (the tree-script
 * check names YAML lines): the rank, the index of its op (counting the
 * SEND/RECV ops it executes, loops expanded, from 0; -1: after its last op),
 * and for a rank that waits forever the chain of waits that explains it. */
typedef enum {
  CS_FAULT_NONE,
  CS_FAULT_BAD_OP,       /* peer out of range, negative count, combining receive in a data collective */
  CS_FAULT_NOT_HELD,     /* sends a unit it does not hold */
  CS_FAULT_TAG_REUSED,   /* a second message with the same (sender, receiver, tag) */
  CS_FAULT_UNITS,        /* the message with this tag carries other units */
  CS_FAULT_TWICE,        /* a contribution counted twice */
  CS_FAULT_STUCK,        /* waits for a message from a rank that has ended */
  CS_FAULT_DEADLOCK,     /* waits in a cycle of waits */
  CS_FAULT_UNRECEIVED,   /* a message (this send) never received */
  CS_FAULT_INCOMPLETE,   /* ends without what the collective requires */
} cs_fault_kind;

typedef struct cs_wait {
  int64_t rank, op_index, peer;
} cs_wait;

typedef struct cs_replay_fault {
  cs_fault_kind kind;
  int64_t rank, op_index, peer;
  /* STUCK: [the waiting rank]; DEADLOCK: the cycle, from its smallest rank,
   * each entry waiting for the next (the last for the first). */
  cs_wait chain[16];
  int chain_len;
} cs_replay_fault;

/* prm as set up by cs_sched_setup.  Returns false with a message on the
 * first error found; fault (may be NULL) says what and where. */
bool cs_replay(const cs_coll_algo *a, const cs_sched_params *prm, cs_replay_stats *st, GError **err);
bool cs_replay_ex(const cs_coll_algo *a, const cs_sched_params *prm, cs_replay_stats *st, cs_replay_fault *fault,
                  GError **err);

#endif
