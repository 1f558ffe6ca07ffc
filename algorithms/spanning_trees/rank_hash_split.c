/* Multi-colour Rank-and-Hash (seed 000, Sec. 6 "Comparison with
 * MPI_Comm_split", Table 1): one k-ary tree per colour, built at once.
 *
 * The upward pass carries a vector of C per-colour counts (dense: C words per
 * message, so O(C log n) on the critical path; the paper's O(min(c log n, n))
 * assumes sparse vectors, which we do not model).  The downward pass carries
 * the C group sizes and the C next ranks.  Groups are hashed one after the
 * other (colour 0's ranks first), so intermediaries of different colours never
 * collide.  The code is rank_hash.c's, which handles C colours; this file is
 * the registry's entry for the multi-colour experiments.  Colour of a member:
 * --color-rule (rank mod C by default, or drawn at random).
 */
#include "algorithms/spanning_trees/rank_hash.h"

void rank_hash_split_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out) { rank_and_hash(p, ctx, out); }
