/* Collectives over a communicator (sim/contracts/comm.h): schedules over
 * the communicator's ranks, one generator per file under
 * algorithms/comm_collectives/ (generators.h), run over the layer's point to
 * point by sim/contracts/comm_schedule.c.  Ranks are group ranks of c; every
 * member calls the same collectives in the same order.
 *
 * Buffers hold `block` bytes per rank, in rank order.  A NULL buffer is a
 * virtual payload: the messages have the sizes of the real ones and carry
 * nothing (for O(N) data per proclet at N = 110,000, as MPICH's allgather
 * in a split would hold; the receiver recomputes what it needs).
 */
#ifndef COLLSIM_COMM_COLL_H
#define COLLSIM_COMM_COLL_H

#include "sim/contracts/comm.h"

#include <stddef.h>

/* Combine `in` into `inout` (both `bytes` long). */
typedef void (*cs_reduce_op)(void *inout, const void *in, size_t bytes);
void cs_reduce_band(void *inout, const void *in, size_t bytes); /* bitwise AND */
void cs_reduce_bor(void *inout, const void *in, size_t bytes);  /* bitwise OR */

/* Binomial tree (MPICH's choice for short messages).  gather: root's out
 * receives size x block bytes (rank order); others pass out = NULL. */
void cs_comm_gather(cs_proc *p, cs_comm *c, int root, const void *mine, size_t block, void *out);
/* scatter: root's `all` holds size x block bytes; every rank's `mine`
 * receives its block (NULL: virtual). */
void cs_comm_scatter(cs_proc *p, cs_comm *c, int root, const void *all, size_t block, void *mine);
/* Binomial reduce to root (n - 1 messages; buf NULL: virtual). */
void cs_comm_reduce(cs_proc *p, cs_comm *c, int root, void *buf, size_t bytes, cs_reduce_op op);
/* bcast of `bytes` from root (buf NULL: virtual). */
void cs_comm_bcast(cs_proc *p, cs_comm *c, int root, void *buf, size_t bytes);
/* Recursive doubling with the non-power-of-two ranks folded in first
 * (MPICH's allreduce for short messages). */
void cs_comm_allreduce(cs_proc *p, cs_comm *c, void *buf, size_t bytes, cs_reduce_op op);
/* Bruck's allgather: ceil(lg size) rounds (out NULL: virtual). */
void cs_comm_allgather(cs_proc *p, cs_comm *c, const void *mine, size_t block, void *out);
/* Barrier: a zero-byte allreduce (dissemination would do the same in
 * ceil(lg size) rounds). */
void cs_comm_barrier(cs_proc *p, cs_comm *c);

#endif
