/* Generators of reduce/broadcast tree scripts (seed 002, Sections 3-5): one
 * file per family, registered in algorithms/reduce_bcast_trees/registry.c, selected by
 * name (collsim allreduce --trees NAME, collsim tree-script --from NAME). */
#ifndef COLLSIM_TREE_GEN_H
#define COLLSIM_TREE_GEN_H

#include "sim/contracts/tree_script.h"

/* What a generator may look at: n processes, rank r on node node_of[r] of
 * `nodes` nodes with `cores` cores each, and family options. */
typedef struct cs_tree_gen_params {
  int n;
  int nodes, cores;
  const int *node_of;   /* n entries */
  int groups_per_node;  /* hierarchical families: local groups per node (1 = one per node) */
  int fanout;           /* tree families with a degree; 0 = the family's default */
  cs_ts_order order;    /* receive order written into the script */
} cs_tree_gen_params;

typedef struct cs_tree_gen {
  const char *name;
  const char *summary;
  cs_tree_script *(*generate)(const cs_tree_gen_params *prm);
} cs_tree_gen;

size_t cs_tree_gen_count(void);
const cs_tree_gen *cs_tree_gen_at(size_t i);
const cs_tree_gen *cs_tree_gen_find(const char *name);

#endif
