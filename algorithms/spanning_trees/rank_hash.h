/* Rank-and-Hash over C colours (C = 1: Sec. 5; C > 1: Sec. 6's multi-colour
 * version).  Shared by rank_hash.c and rank_hash_split.c. */
#ifndef COLLSIM_RANK_HASH_H
#define COLLSIM_RANK_HASH_H
#include "algorithms/spanning_trees/tree_algo.h"
void rank_and_hash(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);
/* Its exact message count (rank_hash.c's top comment), for any C. */
uint64_t rank_and_hash_messages(const cs_tree_shape *s);
#endif
