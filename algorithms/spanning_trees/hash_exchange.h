/* Id discovery through hash intermediaries: the last phase of Rank-and-Hash
 * (seed 000, Sec. 5 "Identifying tree neighbors"), shared by rank-hash and
 * rank-hash-split. */
#ifndef COLLSIM_HASH_EXCHANGE_H
#define COLLSIM_HASH_EXCHANGE_H

#include "algorithms/spanning_trees/tree_algo.h"
#include <stdint.h>

/* Every process installs the intermediary handler before the upward pass (an
 * intermediary may be asked to act while it is still busy with its own part). */
void hash_exchange_install(cs_proc *p, int k);

/* A member that knows its rank in its group, the group size m and the offset
 * of its group among all groups (groups are hashed one after the other):
 * discovers the ids of its parent and children and fills out. */
void hash_exchange_discover(cs_proc *p, int k, int64_t rank, int64_t m, int64_t offset, int color,
                            cs_tree_node *out);

/* The hash: a bijection of [0, n) (affine map with a multiplier prime to n). */
int hash_intermediary(int64_t global_rank, int n);

#endif
