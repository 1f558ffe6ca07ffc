/* The communicator-creation protocols: one line each (implementation,
 * operation, description, context-id scheme, shared maps, entry point).
 * `collsim comm --list` prints this table. */
#include "algorithms/communicators/intercomm.h"

#include <string.h>

cs_create_status cs_leader_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_leader_create(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_mpich_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_mpich_create(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_group_create_intercomm(cs_proc *p, cs_comm *parent, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_group_create_direct(cs_proc *p, cs_comm *parent, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_mpich4_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_ompi_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_smpi_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_moody_bitonic_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
cs_create_status cs_sack_gropp_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
uint64_t cs_sack_gropp_split_messages(int64_t n, const int64_t *group_size, int ngroups);
cs_create_status cs_moody_hash_split(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out);
uint64_t cs_moody_hash_split_messages(int64_t n, const int64_t *group_size, int ngroups);
uint64_t cs_mpich4_split_messages(int64_t n, const int64_t *group_size, int ngroups);
uint64_t cs_ompi_split_messages(int64_t n, const int64_t *group_size, int ngroups);
uint64_t cs_smpi_split_messages(int64_t n, const int64_t *group_size, int ngroups);
uint64_t cs_moody_bitonic_split_messages(int64_t n, const int64_t *group_size, int ngroups);
uint64_t cs_mpich_create_messages(int64_t n, const int64_t *group_size, int ngroups);
uint64_t cs_group_create_intercomm_messages(int64_t n, const int64_t *group_size, int ngroups);
uint64_t cs_group_create_direct_messages(int64_t n, const int64_t *group_size, int ngroups);

static const cs_comm_protocol protocols[] = {
    {"leader", CS_COMM_SPLIT, "Procedure 1: gather to a root, sort, <LID,LBI>, scatter, maps to local leaders",
     CS_CTXID_LIDLBI, true, cs_leader_split, cs_leader_split_messages, "leader-split", 0,
     "2*(n - 1) + m (every member its own local leader: C = 1 or --no-share)"},
    {"leader", CS_COMM_CREATE, "Procedure 2: bitmaps to group rank 0, <LID,LBI> back, map made once per OS process",
     CS_CTXID_LIDLBI, true, cs_leader_create, NULL, "leader-create", 0,
     NULL},
    {"mpich", CS_COMM_SPLIT, "MPICH2: allgather of colour and key, local sort, AND-allreduce of the id mask",
     CS_CTXID_MASK, false, cs_mpich_split, cs_mpich_split_messages, "mpich-split", 0,
     "n*ceil(log2(n)) + 2*rem + pof2*log2(pof2) (Bruck allgather + AND-allreduce; pof2: the largest power of 2 <= n, rem = n - pof2)"},
    {"mpich4", CS_COMM_SPLIT, "MPICH 4.2.3: allgather of colour and key, local sort, sparse id: eager AND-allreduce "
     "of the mask (undefined colours pass all ones)", CS_CTXID_MASK, false, cs_mpich4_split, cs_mpich4_split_messages,
     "mpich4-split", 61,
     "n*ceil(log2(n)) + 2*rem + pof2*log2(pof2) (Bruck allgather + one eager AND-allreduce: the first 61 creations; pof2: the largest power of 2 <= n, rem = n - pof2)"},
    {"ompi", CS_COMM_SPLIT, "Open MPI 4.1.8: allgather of colour and key, local qsort, nextcid's MAX and MIN "
     "allreduces until agreed, activate's MIN allreduce", CS_CTXID_MASK, false, cs_ompi_split, cs_ompi_split_messages,
     "ompi-split", 0,
     "n*ceil(log2(n)) + 3*2*(n - 1) (Bruck allgather + nextcid's MAX and MIN and activate's MIN allreduce, each reduce + bcast; one cid round)"},
    {"smpi", CS_COMM_SPLIT, "SimGrid SMPI 3.32: linear gather of colour and key to rank 0, which sorts each colour and "
     "sends every member its group (a pointer)", CS_CTXID_MASK, false, cs_smpi_split, cs_smpi_split_messages,
     "smpi-split", 0,
     "(n - 1) + M - 1 (gather to rank 0, then every other member's group; M: members; rank 0 has a colour)"},
    {"bitonic", CS_COMM_SPLIT, "Moody et al. 2011 (lwgrp): bitonic sort of (colour, key, rank), neighbour compare, "
     "double scan, result back: a chain per group, O(1) memory", CS_CTXID_MASK, false, cs_moody_bitonic_split,
     cs_moody_bitonic_split_messages, "bitonic-split", 0,
     "B(n) + 2*(n - 1) + sum over d = 1, 2, 4, ... < n of 2*(n - d) + n (bitonic sort, neighbours, double scan, results; B: the sort's pairwise exchanges, n*k*(k+1)/2 for n = 2^k)"},
    {"hash", CS_COMM_SPLIT, "Moody et al. 2011, our reading: colours hashed to owners that chain each colour's "
     "members, barrier, log-chain, bitonic sort by key along each chain", CS_CTXID_MASK, false, cs_moody_hash_split,
     cs_moody_hash_split_messages, "hash-split", 0,
     "3*M + 2*rem + pof2*log2(pof2) + sum over groups of [L(m_i) + B(m_i) + 2*(m_i - 1) + m_i] (L(m) = sum over d = 1, 2, 4, ... < m of 2*(m - d); B: the bitonic sort's count)"},
    {"sackgropp", CS_COMM_SPLIT, "Sack and Gropp 2010: records merged up binomial trees to cbrt(n) sorters, sample "
     "sort among them, results from the distributed table", CS_CTXID_MASK, false, cs_sack_gropp_split,
     cs_sack_gropp_split_messages, "sack-gropp-split", 0,
     "(n - p) + 2*(p - 1) + p*(p - 1) + 2*(p - 1) + M (p = floor(cbrt(n)) sorters; M: members)"},
    {"mpich", CS_COMM_CREATE, "MPICH2: AND-allreduce of the id mask over the whole parent",
     CS_CTXID_MASK, false, cs_mpich_create, cs_mpich_create_messages, "parent-collective", 0,
     "2*rem + pof2*log2(pof2) (the AND-allreduce over the parent of n; pof2: the largest power of 2 <= n, rem = n - pof2)"},
    {"intercomm", CS_COMM_CREATE_GROUP, "Algorithm 1 (seed 004): lg g rounds of Intercomm_create + Intercomm_merge, "
     "members only", CS_CTXID_MASK, false, cs_group_create_intercomm, cs_group_create_intercomm_messages,
     "group-intercomm", 0,
     "sum over rounds k and block pairs (a = 2^k, b <= 2^k) of Intercomm_create(a, b) + Intercomm_merge(a, b) (algorithms/communicators/intercomm_create.c, intercomm_merge.c)"},
    {"direct", CS_COMM_CREATE_GROUP, "Section 5.1 (seed 004): the id mask AND-allreduced among the members only",
     CS_CTXID_MASK, false, cs_group_create_direct, cs_group_create_direct_messages, "group-direct", 0,
     "2*rem + pof2*log2(pof2) per group of g (AND-allreduce among the members; pof2: the largest power of 2 <= g, rem = g - pof2)"},
};

bool cs_comm_protocol_formula_waived(const cs_comm_protocol *p, int64_t per_process, bool share)
{
  return p->shares_maps && per_process > 1 && share;
}

size_t cs_comm_protocol_count(void) { return G_N_ELEMENTS(protocols); }

const cs_comm_protocol *cs_comm_protocol_at(size_t i)
{
  return i < G_N_ELEMENTS(protocols) ? &protocols[i] : NULL;
}

const cs_comm_protocol *cs_comm_protocol_find(const char *impl, cs_comm_op op)
{
  for (size_t i = 0; i < G_N_ELEMENTS(protocols); i++)
    if (strcmp(protocols[i].impl, impl) == 0 && protocols[i].op == op)
      return &protocols[i];
  return NULL;
}

const char *cs_comm_op_name(cs_comm_op op)
{
  return op == CS_COMM_SPLIT ? "split" : op == CS_COMM_CREATE ? "create" : "create-group";
}
