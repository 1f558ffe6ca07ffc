/* What a split's virtual payloads stand for (the simulator shortcut of
 * sim/contracts/comm.h), computed once per creation and shared by the
 * published split protocols (*_split.c beside this file): every proclet's
 * rank and size in its new group, the group of every proclet, and the group
 * maps deposited in the memo under cs_split_memo_key(seq, class).
 *
 * Classes are numbered in colour order (the undefined colour has none).
 * Reading the oracle charges nobody: a protocol uses it only for what its
 * messages carry as virtual payloads, and charges its own work. */
#ifndef COLLSIM_SPLIT_ORACLE_H
#define COLLSIM_SPLIT_ORACLE_H

#include "algorithms/communicators/intercomm.h" /* cs_allreduce_messages */

typedef struct cs_split_oracle {
  int32_t *grank;     /* per outer rank, -1: undefined colour */
  int32_t *gsize;     /* per outer rank */
  int32_t *class_of;  /* per outer rank, -1: undefined colour */
  int32_t classes;
  int32_t *class_size;
  int32_t *first;     /* per class: its smallest outer rank */
  int64_t members;    /* proclets with a defined colour */
  bool failed;        /* a class's map could not be deposited */
} cs_split_oracle;

const cs_split_oracle *cs_split_oracle_get(cs_comm *outer, const cs_comm_request *rq);
uint64_t cs_split_memo_key(uint32_t seq, int32_t cls);
/* World ranks of the outer communicator's members in its rank order
 * (g_free them); the simulator's view, charged to nobody. */
cs_wid *cs_split_outer_wids(const cs_comm *outer);
/* Sort order[0..members) (outer ranks) by (colour, key, rank): MPI_Comm_split's
 * order, as every scheme's local sort computes it. */
void cs_split_sort_members(int *order, int members, const int32_t *color, const int32_t *key);
/* Every split's last step: the member's communicator, context id ctx, its
 * rank and size in it, over its copy of its class's map (charged to p);
 * CS_CREATE_MAP_FAILED when there is no map to copy. */
cs_create_status cs_split_new_comm(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, const cs_split_oracle *o,
                                   uint32_t ctx, int32_t rank, int32_t size, cs_comm **out);

/* Tags of the chain-based splits (below the collectives' tags, above the
 * other protocols'). */
#define CS_TAG_SPLIT_NEIGH (CS_COMM_TAG_RESERVED + 16)
#define CS_TAG_SPLIT_RESULT (CS_COMM_TAG_RESERVED + 17)
#define CS_TAG_SPLIT_HASH (CS_COMM_TAG_RESERVED + 18)
#define CS_TAG_SPLIT_GATHER (CS_COMM_TAG_RESERVED + 19)
#define CS_TAG_SPLIT_SAMPLE (CS_COMM_TAG_RESERVED + 20)
#define CS_TAG_SPLIT_SPLITTER (CS_COMM_TAG_RESERVED + 21)
#define CS_TAG_SPLIT_BUCKET (CS_COMM_TAG_RESERVED + 22)
#define CS_TAG_SPLIT_FSCAN (CS_COMM_TAG_RESERVED + 23)
#define CS_TAG_SPLIT_BSCAN (CS_COMM_TAG_RESERVED + 24)
#define CS_TAG_SPLIT_REPLY (CS_COMM_TAG_RESERVED + 25)
#define CS_TAG_SPLIT_NEXT (CS_COMM_TAG_RESERVED + 26)
#define CS_TAG_SPLIT_SCAN (CS_COMM_TAG_RESERVED + 32)  /* + round, < 64 */
#define CS_TAG_SPLIT_SORT (CS_COMM_TAG_RESERVED + 96)  /* + step mod 512 */
#define CS_SPLIT_SORT_TAGS 512

/* Message counts of the collectives the protocols use (comm_coll.h). */
uint64_t cs_bruck_messages(int64_t n);      /* n ceil(lg n) */
int cs_ceil_lg(int64_t n);
/* Charge p `compares` compares at the world's sorting cost. */
void cs_split_charge_compares(cs_proc *p, cs_world *w, double compares);

#endif
