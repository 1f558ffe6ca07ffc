/* The collectives over a communicator (sim/contracts/comm_coll.h) as
 * schedule generators: each yields one rank's ops (sim/contracts/schedule.h)
 * over p = the communicator's size, from any root, with prm from
 * cs_comm_sched_params; sim/contracts/comm_schedule.c runs them with the
 * data.  The public cs_comm_* entry points generate and run.
 *
 * Tags of the ops pair sends with receives for the replay check
 * (sim/checks/replay.c); on the communicator all messages of one call carry
 * its one collective tag.  Where a collective maps to a cs_coll the replay
 * proves its schedule: gather, scatter, bcast, reduce, allgather; the
 * allreduce has no cs_coll. */
#ifndef COLLSIM_COMM_COLL_GENERATORS_H
#define COLLSIM_COMM_COLL_GENERATORS_H

#include "algorithms/shapes/tree_shapes.h"
#include "sim/contracts/comm_schedule.h"

/* Binomial gather and scatter: the collective schedules' generators
 * (cs_obl_binomial_gather / _scatter, MPICH's MPIR_Gather and MPIR_Scatter
 * trees) with tag 0. */
void cs_comm_gather_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out);
void cs_comm_scatter_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out);
/* Binomial bcast: the scatter's tree, every unit to every child. */
void cs_comm_bcast_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out);
/* Binomial reduce: the gather's tree, every unit combined on the way up. */
void cs_comm_reduce_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out);
/* Bruck's allgather. */
void cs_comm_allgather_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out);
/* Recursive-doubling allreduce with the non-power-of-two ranks folded in. */
void cs_comm_allreduce_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out);

/* A rank's relative rank and the absolute rank of a relative one. */
static inline int64_t cs_comm_rel(const cs_sched_params *prm, int64_t rank)
{
  return cs_tree_rel_rank(rank, prm->root, prm->p);
}
static inline int64_t cs_comm_abs(const cs_sched_params *prm, int64_t rel)
{
  return cs_tree_abs_rank(rel, prm->root, prm->p);
}

/* The blocks of rank's binomial subtree (what it holds in a gather or a
 * scatter). */
static inline cs_units cs_comm_subtree_blocks(const cs_sched_params *prm, int64_t rank)
{
  return cs_units_blocks(prm, rank, cs_binomial_subtree_size(cs_comm_rel(prm, rank), prm->p));
}

#endif
