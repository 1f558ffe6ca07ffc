/* The executor of schedules over a communicator: runs ONE rank's ops
 * (sim/contracts/schedule.h) with real data through the communicator
 * layer's point to point (sim/contracts/comm.h), MPICH's gentran idea.  The
 * collectives over communicators (sim/contracts/comm_coll.h) are schedule
 * generators (algorithms/comm_collectives/) run by this one executor.
 *
 * Ranks of the schedule are c's group ranks (p = c->size).  Units map to
 * byte ranges: the rank holds a WINDOW of units, one run from window.first
 * (wrapping mod nunits), laid out one after the other from the window's first
 * unit, each cs_unit_bytes long.  Every message of the collective carries the
 * one tag cs_comm_next_coll_tag gives (the schedule's tags only pair sends
 * with receives for the replay; two messages between the same ranks are
 * matched in the order sent).
 *   SEND         sends its units' bytes (eager: the layer copies them);
 *   RECV         copies the message into its units;
 *   RECV_REDUCE  combines the message into its units with the caller's op.
 * Virtual payloads (no buffer): messages have the real sizes and carry
 * nothing, receives copy nothing.  Any-order receives are taken in the order
 * listed; loops are expanded.  A message's units must lie in the window. */
#ifndef COLLSIM_COMM_SCHEDULE_H
#define COLLSIM_COMM_SCHEDULE_H

#include "sim/contracts/comm_coll.h"
#include "sim/contracts/schedule.h"

/* Where a rank's data is while its ops run, and what it copies in and out. */
typedef struct cs_comm_sched_io {
  cs_units window;     /* the units the rank holds */
  /* In place (stage false): the caller's buffer holding the window (NULL:
   * virtual).  Staged (stage true): a temporary buffer of the window's bytes,
   * allocated (counted, cs_alloc) when real, else the same bytes declared
   * held (cs_mem_hold_bytes) for the run; inplace is ignored. */
  bool stage, real;
  void *inplace;
  /* Staged and real only: `in` (in_units packed, NULL: none) is copied into
   * the window before the first op, the window's out_units into `out`
   * (NULL: none) after the last. */
  const void *in;
  cs_units in_units;
  void *out;
  cs_units out_units;
} cs_comm_sched_io;

/* A staged io, and one in place on buf (NULL: virtual). */
static inline cs_comm_sched_io cs_comm_staged(cs_units window, bool real, const void *in, cs_units in_units,
                                              void *out, cs_units out_units)
{
  return (cs_comm_sched_io){.window = window, .stage = true, .real = real, .in = in, .in_units = in_units,
                            .out = out, .out_units = out_units};
}
static inline cs_comm_sched_io cs_comm_in_place(cs_units window, void *buf)
{
  return (cs_comm_sched_io){.window = window, .inplace = buf};
}

/* A collective over p ranks from root as a schedule: scatter, gather and
 * allgather take one unit of `size` bytes per rank (block = size, nunits =
 * p); bcast and reduce one unit of `size` bytes (an allreduce is sized as a
 * reduce).  No platform (tt NULL): the executor needs no nodes. */
void cs_comm_sched_params(cs_sched_params *prm, cs_coll coll, int64_t p, int64_t root, uint64_t size);

/* A schedule generator: rank's ops, in order (cs_coll_algo's ops). */
typedef void (*cs_sched_ops_fn)(const cs_sched_params *prm, int64_t rank, cs_oplist *out);

/* Run c->rank's ops of the collective prm (p = c->size) over c with io's
 * buffers; op combines RECV_REDUCE's data (NULL: nothing to combine). */
void cs_comm_run_schedule(cs_proc *p, cs_comm *c, const cs_sched_params *prm, const cs_oplist *ops,
                          const cs_comm_sched_io *io, cs_reduce_op op);
/* The same with the ops that gen yields for c->rank. */
void cs_comm_run_generated(cs_proc *p, cs_comm *c, const cs_sched_params *prm, cs_sched_ops_fn gen,
                           const cs_comm_sched_io *io, cs_reduce_op op);

#endif
