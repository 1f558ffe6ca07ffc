/* Helpers shared by the tree-script generators (internal to
 * algorithms/allreduce): parameter checks, the node/group layout of the
 * hierarchical families, and the mirrored broadcast. */
#ifndef COLLSIM_TREE_GEN_UTIL_H
#define COLLSIM_TREE_GEN_UTIL_H

#include "algorithms/reduce_bcast_trees/tree_gen.h"

/* n >= 1, and when need_nodes: node_of present with no negative entry. */
bool cs_tg_params_ok(const cs_tree_gen_params *prm, bool need_nodes);

/* cs_ts_new with the root (0) and the receive order of prm; NULL when
 * cs_ts_new refuses n. */
cs_tree_script *cs_tg_script(const cs_tree_gen_params *prm, const char *name);

/* Where every rank sits, from node_of alone (no mapping assumed).
 * Nodes are numbered in order of their lowest rank: node 0 holds rank 0.
 * Each node's ranks, in rank order, are cut into `groups` groups of
 * consecutive ranks, as even as possible, the first (count % groups) groups
 * one larger; a node with fewer ranks than groups has one-rank groups.  A
 * group's lowest rank is its group root; a node's lowest rank, the root of
 * its first group, is the node leader. */
typedef struct cs_tg_layout {
  int n, nnodes;
  int *node;       /* [n]: node number of each rank */
  int *group_root; /* [n]: root of each rank's group (itself for a root) */
  int *leader;     /* [nnodes]: lowest rank of each node, increasing */
} cs_tg_layout;

cs_tg_layout *cs_tg_layout_new(const cs_tree_gen_params *prm, int groups);
void cs_tg_layout_free(cs_tg_layout *l);

/* Reduce commands for every group member: each group root receives from
 * its members in rank order, each member sends to its group root. */
void cs_tg_add_group_reduce(cs_tree_script *s, const cs_tg_layout *l);

/* The broadcast as the reduce run backwards: each rank's broadcast list is
 * its reduce list reversed, every receive turned into a send and every send
 * into a receive (one receive from the parent, then the children in the
 * reverse of the order their partial sums were received). */
void cs_tg_mirror_bcast(cs_tree_script *s);

#endif
