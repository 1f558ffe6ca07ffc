/* The MPICH selector: the algorithm MPICH 4.2.3 (tag v4.2.3 of
 * github.com/pmodels/mpich) runs by default for a blocking collective on an
 * intra-communicator, read from:
 *   - maint/tuning/coll/mpir/generic.json, the default collective-selection
 *     tree that MPIR_<Coll>_allcomm_auto searches when
 *     MPIR_CVAR_<COLL>_INTRA_ALGORITHM is "auto" (the default);
 *   - src/mpi/coll/src/csel.c, what its keys mean: avg_msg_size is type size
 *     x count for bcast, reduce and allreduce and x sendcount (one pair's
 *     block) for alltoall; total_msg_size is recvcount x type size x
 *     comm_size for allgather and the sum of recvcounts x type size for
 *     reduce_scatter; "count<pow2" is count < comm->coll.pof2 (the largest
 *     power of two <= comm_size); the first key that holds wins;
 *   - src/mpi/coll/cvars.txt: MPIR_CVAR_ALLTOALL_THROTTLE = 32, the batch
 *     of MPIR_Alltoall_intra_scattered (alltoall_intra_scattered.c);
 *   - src/mpi/coll/alltoall/alltoall_intra_pairwise.c: pairs rank XOR i when
 *     comm_size is a power of two, rank +- i otherwise.
 * Blocking calls follow the JSON, not the older MPIR_CVAR_*_MSG_SIZE
 * thresholds (in 4.2.3 those drive only the non-blocking and SMP paths):
 * e.g. the JSON's bcast binomial bound is avg_msg_size<=12288 where
 * MPIR_CVAR_BCAST_SHORT_MSG_SIZE's rule is nbytes < 12288.
 *
 * Choices left open (and what this file assumes):
 *   - comm_hierarchy: a flat communicator (not "parent"), so the
 *     "comm_hierarchy=any" branches; for bcast, reduce and allreduce the
 *     "parent" branches differ only at avg_msg_size<=0; barrier on a parent
 *     communicator would be MPIR_Barrier_intra_smp.  The ch4 device's
 *     maint/tuning/coll/ch4/generic.json compositions for such a communicator
 *     call these MPIR algorithms.
 *   - the datatype: count = size / 8 (MPI_DOUBLE);
 *   - commutative means a built-in operation (MPI_SUM), not commutative a
 *     user-defined one (is_op_built_in=no);
 *   - sendbuf is not MPI_IN_PLACE; reduce-scatter blocks are regular.
 * Names: MPICH's algorithm runs as collsim's where collsim has the same
 * messages (the map below); where it does not (the throttled scattered
 * alltoall beyond 32 ranks, recursive halving, ...) the point is refused,
 * never substituted.  collsim's pairwise alltoall pairs as MPICH's does
 * (XOR on powers of two), so it serves every pairwise point. */
#include "algorithms/selectors/selector.h"

#define SRC "MPICH 4.2.3 maint/tuning/coll/mpir/generic.json"
#define YES CS_SEL_YES
#define NO CS_SEL_NO

static const cs_sel_rule rules[] = {
    {CS_COLL_BCAST, {.p_lt = 8}, "MPIR_Bcast_intra_binomial"},
    {CS_COLL_BCAST, {.pow2 = YES, .size_le = 12288}, "MPIR_Bcast_intra_binomial"},
    {CS_COLL_BCAST, {.pow2 = YES, .size_le = 524288}, "MPIR_Bcast_intra_scatter_recursive_doubling_allgather"},
    {CS_COLL_BCAST, {.pow2 = YES}, "MPIR_Bcast_intra_scatter_ring_allgather"},
    {CS_COLL_BCAST, {.size_le = 12288}, "MPIR_Bcast_intra_binomial"},
    {CS_COLL_BCAST, {0}, "MPIR_Bcast_intra_scatter_ring_allgather"},

    {CS_COLL_ALLREDUCE, {.size_le = 8}, "MPIR_Allreduce_intra_recursive_doubling"},
    {CS_COLL_ALLREDUCE, {.commutative = NO}, "MPIR_Allreduce_intra_recursive_doubling"},
    {CS_COLL_ALLREDUCE, {.count_lt_pof2 = YES}, "MPIR_Allreduce_intra_recursive_doubling"},
    {CS_COLL_ALLREDUCE, {0}, "MPIR_Allreduce_intra_reduce_scatter_allgather"},

    {CS_COLL_ALLGATHER, {.pow2 = YES, .size_lt = 524288}, "MPIR_Allgather_intra_recursive_doubling"},
    {CS_COLL_ALLGATHER, {.pow2 = YES}, "MPIR_Allgather_intra_ring"},
    {CS_COLL_ALLGATHER, {.size_lt = 81920}, "MPIR_Allgather_intra_brucks"},
    {CS_COLL_ALLGATHER, {0}, "MPIR_Allgather_intra_ring"},

    {CS_COLL_REDUCE, {.size_le = 2048}, "MPIR_Reduce_intra_binomial"},
    {CS_COLL_REDUCE, {.commutative = NO}, "MPIR_Reduce_intra_binomial"},
    {CS_COLL_REDUCE, {.count_lt_pof2 = YES}, "MPIR_Reduce_intra_binomial"},
    {CS_COLL_REDUCE, {0}, "MPIR_Reduce_intra_reduce_scatter_gather"},

    {CS_COLL_REDUCE_SCATTER, {.commutative = YES, .size_lt = 524288}, "MPIR_Reduce_scatter_intra_recursive_halving"},
    {CS_COLL_REDUCE_SCATTER, {.commutative = YES}, "MPIR_Reduce_scatter_intra_pairwise"},
    {CS_COLL_REDUCE_SCATTER, {.pow2 = YES}, "MPIR_Reduce_scatter_intra_noncommutative"},
    {CS_COLL_REDUCE_SCATTER, {0}, "MPIR_Reduce_scatter_intra_recursive_doubling"},

    {CS_COLL_GATHER, {0}, "MPIR_Gather_intra_binomial"},
    {CS_COLL_SCATTER, {0}, "MPIR_Scatter_intra_binomial"},
    {CS_COLL_BARRIER, {0}, "MPIR_Barrier_intra_k_dissemination"},

    {CS_COLL_ALLTOALL, {.p_lt = 8, .size_le = 32768}, "MPIR_Alltoall_intra_scattered"},
    {CS_COLL_ALLTOALL, {.p_lt = 8}, "MPIR_Alltoall_intra_pairwise"},
    {CS_COLL_ALLTOALL, {.size_le = 256}, "MPIR_Alltoall_intra_brucks"},
    {CS_COLL_ALLTOALL, {.size_le = 32768}, "MPIR_Alltoall_intra_scattered"},
    {CS_COLL_ALLTOALL, {0}, "MPIR_Alltoall_intra_pairwise"},
};

static const cs_sel_name names[] = {
    {CS_COLL_BCAST, "MPIR_Bcast_intra_binomial", {0}, "binomial", NULL},
    {CS_COLL_BCAST, "MPIR_Bcast_intra_scatter_recursive_doubling_allgather", {0}, "scatter-rdb", NULL},
    {CS_COLL_BCAST, "MPIR_Bcast_intra_scatter_ring_allgather", {0}, "vandegeijn", NULL},
    {CS_COLL_ALLREDUCE, "MPIR_Allreduce_intra_recursive_doubling", {0}, "recursive-doubling", NULL},
    {CS_COLL_ALLREDUCE, "MPIR_Allreduce_intra_reduce_scatter_allgather", {0}, "rabenseifner", NULL},
    {CS_COLL_ALLGATHER, "MPIR_Allgather_intra_recursive_doubling", {0}, "recursive-doubling", NULL},
    {CS_COLL_ALLGATHER, "MPIR_Allgather_intra_ring", {0}, "ring", NULL},
    {CS_COLL_ALLGATHER, "MPIR_Allgather_intra_brucks", {0}, "bruck", NULL},
    {CS_COLL_REDUCE, "MPIR_Reduce_intra_binomial", {0}, "binomial", NULL},
    {CS_COLL_REDUCE, "MPIR_Reduce_intra_reduce_scatter_gather", {0}, "rabenseifner", NULL},
    {CS_COLL_REDUCE_SCATTER, "MPIR_Reduce_scatter_intra_recursive_halving", {0}, NULL,
     "collsim has no recursive-halving reduce-scatter"},
    {CS_COLL_REDUCE_SCATTER, "MPIR_Reduce_scatter_intra_pairwise", {0}, "pairwise", NULL},
    {CS_COLL_REDUCE_SCATTER, "MPIR_Reduce_scatter_intra_noncommutative", {0}, NULL,
     "collsim has no non-commutative (recursive-halving, bit-reversed) reduce-scatter"},
    {CS_COLL_REDUCE_SCATTER, "MPIR_Reduce_scatter_intra_recursive_doubling", {0}, NULL,
     "collsim has no recursive-doubling reduce-scatter"},
    {CS_COLL_GATHER, "MPIR_Gather_intra_binomial", {0}, "binomial", NULL},
    {CS_COLL_SCATTER, "MPIR_Scatter_intra_binomial", {0}, "binomial", NULL},
    {CS_COLL_BARRIER, "MPIR_Barrier_intra_k_dissemination", {0}, "dissemination", "k=2 (the JSON's)"},
    {CS_COLL_ALLTOALL, "MPIR_Alltoall_intra_scattered", {.p_le = 32}, "linear",
     "one batch: p <= MPIR_CVAR_ALLTOALL_THROTTLE=32, every send and receive posted at once"},
    {CS_COLL_ALLTOALL, "MPIR_Alltoall_intra_scattered", {0}, NULL,
     "batches of MPIR_CVAR_ALLTOALL_THROTTLE=32 ranks (alltoall_intra_scattered.c); collsim has no throttled "
     "linear alltoall"},
    {CS_COLL_ALLTOALL, "MPIR_Alltoall_intra_pairwise", {0}, "pairwise",
     "pairs rank XOR i on a power-of-two comm_size, rank +- i otherwise (alltoall_intra_pairwise.c)"},
    {CS_COLL_ALLTOALL, "MPIR_Alltoall_intra_brucks", {0}, "bruck", NULL},
};

const cs_sel_data cs_sel_mpich_data = {
    SRC,
    "comm_size",
    {
        [CS_COLL_SCATTER] = {"total_msg_size", true},
        [CS_COLL_GATHER] = {"total_msg_size", true},
        [CS_COLL_BCAST] = {"avg_msg_size", false},
        [CS_COLL_ALLGATHER] = {"total_msg_size", true},
        [CS_COLL_REDUCE_SCATTER] = {"total_msg_size", true},
        [CS_COLL_REDUCE] = {"avg_msg_size", false},
        [CS_COLL_ALLREDUCE] = {"avg_msg_size", false},
        [CS_COLL_ALLTOALL] = {"avg_msg_size", false},
        [CS_COLL_BARRIER] = {"size", false},
    },
    rules,
    G_N_ELEMENTS(rules),
    names,
    G_N_ELEMENTS(names),
};

bool cs_select_mpich(cs_coll c, int64_t p, uint64_t size, bool commutative, cs_selection *out)
{
  return cs_sel_evaluate(&cs_sel_mpich_data, c, p, size, commutative, out);
}
