/* Helpers shared by the topology-oblivious schedules (seed 001, Section 4,
 * Table 1): MPICH's binomial scatter and gather trees (shapes from
 * algorithms/shapes/tree_shapes.h), the ring allgather, the pairwise
 * reduce-scatter, and their costs.
 *
 * Ranks are taken relative to prm->root: rel = (rank - root) mod p.  The
 * binomial helpers move per-rank blocks (cs_units_blocks), the data of
 * relative ranks [rel, rel + n) being the blocks of real ranks
 * root+rel .. root+rel+n-1 (mod p, a range that may wrap, which cs_units
 * allows).  With root 0 (always, in collsim) relative and real ranks agree. */
#ifndef COLLSIM_OBLIVIOUS_H
#define COLLSIM_OBLIVIOUS_H

#include "algorithms/shapes/tree_shapes.h"
#include "sim/contracts/schedule.h"

/* The tree arithmetic (lowest bit, relative ranks, subtree sizes) is
 * algorithms/shapes/tree_shapes.h's. */

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

/* ---- costs (sim/contracts/cost.h), each with its formula text ---- */

/* Partners for cs_cost_pattern: rank + d mod p, rank XOR d (-1 past p). */
int64_t cs_obl_shift_partner(const cs_sched_params *prm, int64_t rank, int64_t d);
int64_t cs_obl_xor_partner(const cs_sched_params *prm, int64_t rank, int64_t d);

/* The binomial tree's critical path, blocks of b bytes, rank by rank (the
 * longest path of the tree).  scatter: a rank holding its subtree's blocks
 * sends every child its subtree at once, largest first (o_send each), the
 * off-node ones sharing its port fairly; gather: a rank receives its
 * children nearest first, each ready when its own subtree is, their
 * messages through its port one after another. */
double cs_obl_binomial_cost(const cs_sched_params *prm, const cs_cost_params *c, double b, bool scatter);
#define CS_OBL_BINOMIAL_SCATTER_COST \
  "longest path of the tree: child c of r (its k-th send, subtree s_c = size(c)*b) has it k*o_send + o_recv + a(c) + " \
  "max(s_c*B(c), sum_j min(s_j, s_c)*Bp) after r (j: r's off-node children)"
#define CS_OBL_BINOMIAL_GATHER_COST \
  "longest path of the tree: r receives child c (subtree s_c = size(c)*b, nearest first) o_send + a(c) + " \
  "max(s_c*B(c), Bp*(bytes through r's port so far)) after c has its subtree, + o_recv"
/* The ring allgather: p-1 steps of every rank sending a block to rank+1.
 * Two bounds: a rank's next send waits for the last to be delivered (FIFO
 * channels), receiving meanwhile, so each of its p-1 steps takes its send
 * or its overheads; and block i reaches rank i-1 after p-1 hops, each
 * msg(i, i+1) = o + a + b*B at the level of the pair. */
double cs_obl_ring_cost(const cs_sched_params *prm, const cs_cost_params *c, double b);
#define CS_OBL_RING_COST "max((p-1)*max(shift(1, b) - o_recv, o), sum of msg(i, i+1, b) over p-1 pairs in a row)"
/* The pairwise reduce-scatter: steps i = 1..p-1, a block to rank+i, combined. */
double cs_obl_pairwise_cost(const cs_sched_params *prm, const cs_cost_params *c, double b);
#define CS_OBL_PAIRWISE_COST "sum_i=1..p-1 [shift(i, b) + b*g]"

#endif
