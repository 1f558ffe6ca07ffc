/* Helpers shared by the topology-oblivious schedules (seed 001, Section 4,
 * Table 1): power-of-two arithmetic, MPICH's binomial scatter and gather
 * trees, and the ring allgather.
 *
 * Ranks are taken relative to prm->root: rel = (rank - root) mod p.  The
 * binomial helpers move per-rank blocks (cs_units_blocks), the data of
 * relative ranks [rel, rel + n) being the blocks of real ranks
 * root+rel .. root+rel+n-1 (mod p, a range that may wrap, which cs_units
 * allows).  With root 0 (always, in collsim) relative and real ranks agree. */
#ifndef COLLSIM_OBLIVIOUS_H
#define COLLSIM_OBLIVIOUS_H

#include "sim/contracts/schedule.h"

/* Largest power of two <= x (x >= 1). */
int64_t cs_obl_pow2_floor(int64_t x);
bool cs_obl_is_pow2(int64_t x);
/* log2 of a power of two. */
int cs_obl_log2(int64_t pow2);
/* Lowest set bit of x > 0. */
static inline int64_t cs_obl_lowbit(int64_t x) { return x & -x; }

/* Rank relative to the root, and back. */
int64_t cs_obl_rel_rank(const cs_sched_params *prm, int64_t rank);
int64_t cs_obl_abs_rank(const cs_sched_params *prm, int64_t rel);

/* Ranks in the binomial subtree of relative rank rel (MPICH's tree: rel's
 * parent is rel minus its lowest set bit; the root's subtree is all p). */
int64_t cs_obl_subtree_size(int64_t rel, int64_t p);

/* MPIR_Scatter_intra_binomial: rank receives its subtree's blocks from its
 * parent (rel - lowbit(rel)), then sends each child rel + mask (mask from
 * lowbit(rel)/2, or the largest power of two < p at the root, down to 1)
 * the blocks of that child's subtree.  Message at tree level log2(mask)
 * carries tag + log2(mask). */
void cs_obl_binomial_scatter(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out);

/* MPIR_Gather_intra_binomial, the mirror image: for mask = 1, 2, 4, ...
 * while bit mask of rel is clear, receive the subtree blocks of rel + mask
 * (if it exists); at the first set bit, send everything held (the blocks of
 * rel's subtree) to rel - mask and stop.  Tags as in the scatter. */
void cs_obl_binomial_gather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out);

/* MPIR_Allgather_intra_ring: p-1 steps; in step i (from 0) send block
 * rank-i to rank+1 and receive block rank-1-i from rank-1 (mod p).  One
 * CS_OP_LOOP of two ops; step i uses tag + i.  Nothing for p = 1. */
void cs_obl_ring_allgather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out);

/* MPIR_Reduce_scatter_intra_pairwise (commutative): p-1 steps; in step i
 * (i = 1 .. p-1) send one's own contribution to block rank+i to rank+i and
 * add into one's block the contribution of rank-i.  One CS_OP_LOOP of two
 * ops; step i uses tag + i - 1.  Nothing for p = 1. */
void cs_obl_pairwise_reduce_scatter(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out);

#endif
