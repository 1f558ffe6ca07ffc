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

/* MPIR_Bcast_intra_binomial: the scatter's tree, every unit to every child:
 * receive everything from rel - lowbit(rel) (tag + log2 lowbit(rel)), then
 * send everything to rel + mask, mask from the largest below lowbit(rel)
 * (the root: below p) down to 1 (tag + log2 mask).  p - 1 messages. */
void cs_obl_binomial_bcast(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out);

/* MPIR_Reduce_intra_binomial (commutative), the gather's tree: for mask =
 * 1, 2, 4, ... below lowbit(rel) (the root: below p) combine everything
 * rel + mask sends (if it exists, tag + log2 mask), then send everything
 * to rel - lowbit(rel).  p - 1 messages. */
void cs_obl_binomial_reduce(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out);

/* MPIR_Allgather_intra_brucks: for k = 1, 2, 4, ... < p, send the first
 * min(k, p - k) blocks held (rank's own and the following ones) to rank - k
 * and receive as many, from rank + k's block on, from rank + k (tag +
 * log2 k).  p ceil(log2 p) messages. */
void cs_obl_bruck_allgather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out);

/* MPIR_Allgather_intra_recursive_doubling over relative ranks, with its
 * halving fix-up for non-powers of two (recursive_doubling_allgather.c says
 * how).  Exchange of step i: tag + i; fix-up: tag + 64 + 64 i + log2(tmp)
 * (tags below tag + 64 * 64). */
void cs_obl_recursive_doubling_allgather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out);

/* Open MPI's ompi_coll_base_bcast_intra_generic over any tree: the buffer
 * in prm->nunits segments; the root sends segment s to each child in turn
 * (children in order), an inner rank receives segment s from its parent and
 * then passes it to its children, a leaf receives them: one CS_OP_LOOP of
 * nunits iterations per rank (segment s: tag s).  parent and children are
 * real ranks (parent -1 at the root). */
void cs_obl_segmented_bcast(const cs_sched_params *prm, int64_t parent, const int64_t *children, int nchildren,
                            cs_oplist *out);
/* The same on the tree of parent_of/children_of over relative ranks (Open
 * MPI's tree and chain shapes, tree_shapes.h), fanout <= 64. */
typedef int64_t (*cs_obl_parent_fn)(int64_t rel, int fanout, int64_t p);
typedef int (*cs_obl_children_fn)(int64_t rel, int fanout, int64_t p, int64_t *children);
void cs_obl_tree_bcast(const cs_sched_params *prm, int64_t rank, cs_obl_parent_fn parent_of,
                       cs_obl_children_fn children_of, int fanout, cs_oplist *out);
/* A plan() for it: nunits = ceil(bytes / prm->segment) segments, or 1
 * without segmentation (segment 0); refused past 2^30 segments. */
bool cs_obl_plan_segments(cs_sched_params *prm, GError **err);

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

/* The binomial broadcast and reduce: the scatter's and the gather's critical
 * paths with every message carrying the whole buffer n (the reduce adding
 * n*g per message combined). */
double cs_obl_binomial_bcast_cost(const cs_sched_params *prm, const cs_cost_params *c, double n);
double cs_obl_binomial_reduce_cost(const cs_sched_params *prm, const cs_cost_params *c, double n);
#define CS_OBL_BINOMIAL_BCAST_COST \
  "longest path of the tree: child c of r (its k-th send) has the buffer k*o_send + o_recv + a(c) + " \
  "max(n*B(c), n*Bp*(r's off-node children)) after r"
#define CS_OBL_BINOMIAL_REDUCE_COST \
  "longest path of the tree: r combines child c (nearest first) o_send + a(c) + max(n*B(c), " \
  "Bp*(bytes through r's port so far)) after c is done, + o_recv + n*g"
/* Bruck's allgather: ceil(log2 p) shifts by -k of min(k, p-k) blocks. */
double cs_obl_bruck_cost(const cs_sched_params *prm, const cs_cost_params *c, double b);
#define CS_OBL_BRUCK_COST "sum_k=1,2,4..<p shift(-k, min(k, p-k)*b)"
/* The recursive-doubling allgather (with its fix-up), blocks of b bytes. */
double cs_obl_recursive_doubling_cost(const cs_sched_params *prm, const cs_cost_params *c, double b);
#define CS_OBL_RECURSIVE_DOUBLING_COST \
  "sum_i=0..L-1 [xor(2^i, 2^i*b) + fix-up_i], fix-up_i (p no power of two, a group whose partner group is cut " \
  "at p, nc = its missing blocks): sum over halvings j < i of msg(2^j, nc*b)"
/* The segmented tree broadcast (cs_obl_segmented_bcast) on the tree of
 * parent_of/children_of (relative ranks, a parent numbered below its
 * children): S = nunits segments of s = n/S bytes.  The first segment goes
 * down level by level: step d = every rank at depth d sending s to each of
 * its children at once, with the loads of those edges (node pairs, ports,
 * L2 links; the busiest rank's sends); each further segment takes one
 * period more: the step of every edge of the tree at once. */
double cs_obl_segmented_cost(const cs_sched_params *prm, const cs_cost_params *c, cs_obl_parent_fn parent_of,
                             cs_obl_children_fn children_of, int fanout);
#define CS_OBL_SEGMENTED_COST(tree) \
  tree ": sum_d=0..depth-1 step(edges from depth d, s) + (S-1)*step(every edge, s), S segments of s = n/S; " \
  "step(E, s): each edge of E carries s at once"
/* Root sends (scatter) or receives (gather, any order) a block of b bytes
 * to/from every other rank at once: one step, p-1 sends (receives) by the
 * root, each node's blocks between the root's node and it, the root's port
 * carrying every off-node block. */
double cs_obl_linear_cost(const cs_sched_params *prm, const cs_cost_params *c, double b, bool scatter);
#define CS_OBL_LINEAR_SCATTER_COST \
  "(p-1)*o_send + a + max(cpn*b*B, (p-cpn)*b*Bp, (p/sn)*b*BL) + o_recv: one step, the root sends p-1 blocks at once"
#define CS_OBL_LINEAR_GATHER_COST \
  "o_send + a + max(cpn*b*B, (p-cpn)*b*Bp, (p/sn)*b*BL) + (p-1)*o_recv: one step, the root receives p-1 blocks in " \
  "any order"

#endif
