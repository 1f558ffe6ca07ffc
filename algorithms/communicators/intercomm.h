/* MPICH's intercommunicator creation and merge (seed 004, Section 3),
 * decomposed into point-to-point messages on the communicator layer, and
 * the message counts of MPICH's short-message collectives they use.  One
 * file each: intercomm_create.c, intercomm_merge.c. */
#ifndef COLLSIM_INTERCOMM_H
#define COLLSIM_INTERCOMM_H

#include "algorithms/communicators/protocol.h"

/* Messages of the collectives over n members (algorithms/comm_collectives/):
 * recursive-doubling allreduce 2 rem + pof2 lg pof2 (pof2 the largest power
 * of two <= n, rem = n - pof2); binomial bcast n - 1. */
uint64_t cs_allreduce_messages(int64_t n);
uint64_t cs_bcast_messages(int64_t n);

/* MPI_Intercomm_create(local, local_leader, peer, remote_leader, tag):
 * collective over local (and, at the same time, over the remote group);
 * peer and remote_leader matter at the local leader only.  Context ids from
 * MPICH's mask (ids).  NULL when the mask has no common free id. */
cs_intercomm *cs_intercomm_create(cs_proc *p, cs_comm *local, int local_leader, cs_comm *peer, int remote_leader,
                                  int tag, cs_ctxids *ids);
/* Messages of one MPI_Intercomm_create between groups of a and b members. */
uint64_t cs_intercomm_create_messages(int64_t a, int64_t b);

/* MPI_Intercomm_merge(ic, high): the union as an intracommunicator, the
 * low group first, with a new context id agreed over the union.  memo_key:
 * the same nonzero key on every member of the union (the simulator builds
 * the union's map once; comm.h).  NULL when no context id is free or the
 * map cannot be built. */
cs_comm *cs_intercomm_merge(cs_proc *p, cs_intercomm *ic, bool high, cs_ctxids *ids, uint64_t memo_key);
/* Messages of one MPI_Intercomm_merge of groups of a and b members. */
uint64_t cs_intercomm_merge_messages(int64_t a, int64_t b);

/* MPI_Comm_free of an intercommunicator (its receive context id back to
 * the mask; local, no messages) and of an intracommunicator made with a
 * mask id. */
void cs_intercomm_free(cs_proc *p, cs_intercomm *ic, cs_ctxids *ids);
void cs_mpich_comm_free(cs_proc *p, cs_comm *c, cs_ctxids *ids);

/* MPIX_Group_comm_create(parent, group, tag) for the calling member
 * (grp_rank its rank in group, m members, world ranks in group order):
 * Algorithm 1 (group_create_intercomm.c; memo_base: a key, low 22 bits
 * zero, distinct per creation) or the direct creation
 * (group_create_direct.c; memo_key: the group's key).  Non-members never
 * call them.  NULL when no context id is free. */
cs_comm *cs_group_comm_create_intercomm(cs_proc *p, cs_comm *parent, const cs_wid *group, int64_t m, int grp_rank,
                                         int tag, cs_ctxids *ids, uint64_t memo_base);
cs_comm *cs_group_comm_create_direct(cs_proc *p, cs_comm *parent, const cs_wid *group, int64_t m, int grp_rank,
                                      int tag, cs_ctxids *ids, uint64_t memo_key);

/* MPI_Comm_create(parent, group) as MPICH (mpich_create.c) for one
 * caller: every process of parent calls it, a member with its group
 * (world ranks in order, its rank grp_rank), a non-member with group NULL
 * (it returns NULL).  status: why a member got NULL. */
cs_comm *cs_mpich_comm_create(cs_proc *p, cs_comm *parent, const cs_wid *group, int64_t m, int grp_rank,
                              cs_ctxids *ids, uint64_t memo_key, cs_create_status *status);

/* MPICH's MPIR_Get_contextid: AND-allreduce of the masks over c, the id
 * taken in the caller's mask; -1 when none is free (mpich_split.c). */
int cs_mpich_context_id(cs_proc *p, cs_comm *c, cs_ctxids *ids);

#endif
