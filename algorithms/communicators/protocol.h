/* Communicator-creation protocols (seed 003, Section 4): one file each,
 * registered in algorithms/communicators/registry.c by (impl, op).
 *
 * A protocol runs on every proclet of the outer communicator, against the
 * communicator layer only (sim/contracts/comm.h, comm_coll.h), and returns
 * the proclet's new communicator (NULL: not a member).
 */
#ifndef COLLSIM_COMM_PROTOCOL_H
#define COLLSIM_COMM_PROTOCOL_H

#include "algorithms/communicators/context_id.h"
#include "sim/contracts/comm_coll.h"
#include "sim/contracts/groupmap_strategy.h"

#define CS_COLOR_UNDEFINED (-1)

/* CS_COMM_CREATE_GROUP (seed 004): collective over the group's members
 * only, through the parent communicator with a tag per group. */
typedef enum { CS_COMM_SPLIT, CS_COMM_CREATE, CS_COMM_CREATE_GROUP } cs_comm_op;

typedef enum {
  CS_CREATE_OK = 0,
  CS_CREATE_NO_CONTEXT_ID, /* the scheme ran out of context ids */
  CS_CREATE_MAP_FAILED,    /* no representation could be built (limits) */
} cs_create_status;

/* What one creation asks of every proclet.  A proclet reads its own
 * entries; MPICH's split also "recomputes" the others' colours and keys
 * that its virtual allgather stands for. */
typedef struct cs_comm_request {
  cs_comm_op op;
  const int32_t *color; /* split: per outer rank (CS_COLOR_UNDEFINED: no new communicator) */
  const int32_t *key;   /* split: per outer rank */
  /* create: the disjoint groups (world ranks in group order) and the group
   * of each outer rank (-1: none); every member of groups[g] holds it. */
  const cs_wid *const *groups;
  const int64_t *group_size;
  int ngroups;
  const int32_t *group_of;
  const int32_t *group_rank; /* create: each outer rank's rank in its group (MPI_Group_rank) */
  cs_ctxids *ids;
  uint32_t seq;         /* creation number, distinct per creation of a run */
  int tag_base;         /* create-group: group g communicates on the parent with tag tag_base + g */
} cs_comm_request;

typedef cs_create_status (*cs_comm_protocol_fn)(cs_proc *p, cs_comm *outer, const cs_comm_request *rq,
                                                cs_comm **out);

typedef struct cs_comm_protocol {
  const char *impl;        /* "leader", "mpich" */
  cs_comm_op op;
  const char *description;
  cs_ctxid_scheme scheme;  /* the context ids it uses */
  bool shares_maps;        /* maps shared per OS process (needs process-unique ids) */
  cs_comm_protocol_fn run;
  /* Messages of one creation by the file's documented formula, for a
   * parent of n and the request's groups; NULL: no closed form (the run
   * then reports none). */
  uint64_t (*messages)(int64_t n, const int64_t *group_size, int ngroups);
  /* The method in the papers' words (the comm records' method column):
   * seed 003's leader-split, mpich-split, leader-create; seed 004's
   * parent-collective, group-intercomm (Algorithm 1), group-direct. */
  const char *method;
  /* The formula holds for this many creations in a row from a fresh world
   * (MPICH 4's eager context ids run out after 61); 0: any number.  A run
   * of more reports no formula. */
  int formula_creations;
  /* `messages` as a formula in the files' words (records' messages_formula),
   * or NULL when there is none. */
  const char *messages_text;
} cs_comm_protocol;

/* Seed 003's split counts (the top of leader_split.c and mpich_split.c),
 * for a split: group_size[i] the members of colour i, ngroups the colours.
 * leader's holds when every member is its own OS process (C = 1). */
uint64_t cs_leader_split_messages(int64_t n, const int64_t *group_size, int ngroups);
uint64_t cs_mpich_split_messages(int64_t n, const int64_t *group_size, int ngroups);

size_t cs_comm_protocol_count(void);
const cs_comm_protocol *cs_comm_protocol_at(size_t i);
const cs_comm_protocol *cs_comm_protocol_find(const char *impl, cs_comm_op op);
const char *cs_comm_op_name(cs_comm_op op);
/* Whether p's closed form (messages) does not hold on this machine: a
 * protocol that shares maps per OS process counts one local leader per
 * process, so its formula (written for every member its own leader) holds
 * only with one proclet per process or --no-share. */
bool cs_comm_protocol_formula_waived(const cs_comm_protocol *p, int64_t per_process, bool share);

/* Memo keys (comm.h's simulator shortcut) of a creation's groups. */
static inline uint64_t cs_memo_key(uint32_t seq, uint64_t which)
{
  return (uint64_t)(seq + 1) << 32 | (which & 0xFFFFFFFFu);
}

/* Tags of the protocols (above the collectives' base). */
#define CS_TAG_MEMBERS (CS_COMM_TAG_RESERVED + 2)
#define CS_TAG_BITMAP (CS_COMM_TAG_RESERVED + 3)
#define CS_TAG_CID (CS_COMM_TAG_RESERVED + 4)
#define CS_TAG_MERGE_HIGH (CS_COMM_TAG_RESERVED + 5)

#endif
