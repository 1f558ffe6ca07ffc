/* Search for the best reduce/broadcast trees on a cluster (seed 002, issue
 * part 5): the paper found its trees by hand; here every member of the
 * generated families is simulated and the fastest kept.
 *
 * Candidates: lam; linear; hierarchical with g = 1 .. cores groups per node;
 * kary-node with g = 1 .. cores groups and fan-out k = 1 .. nodes-1 between
 * node leaders (k = nodes-1: every node leader sends to rank 0; smaller k:
 * deeper trees); each with both receive orders (as scripted, by arrival).
 * Each candidate runs `iterations` Allreduce operations in its own process
 * (SimGrid initialises once per process); the fastest mean time wins, ties
 * going to fewer inter-node messages, then to the earlier candidate. */
#ifndef COLLSIM_TREE_SEARCH_H
#define COLLSIM_TREE_SEARCH_H

#include "algorithms/reduce_bcast_trees/tree_gen.h"
#include "platforms/platform.h"
#include "sim/engine/sg_engine.h"

#include <stdio.h>

typedef struct cs_tree_choice {
  char family[32];
  int groups, fanout;
  cs_ts_order order;
  double us_per_allreduce;
  int internode_messages;
} cs_tree_choice;

/* "hierarchical groups=2 order=arrival" (g_free it). */
char *cs_tree_choice_describe(const cs_tree_choice *c);
/* The script of a choice for n processes on cluster c (NULL if the family
 * rejects the parameters). */
cs_tree_script *cs_tree_choice_script(const cs_tree_choice *ch, const cs_platform *c, int n);

/* Runs the search; every candidate's line goes to log (may be NULL).
 * ec: engine settings for the candidates' runs. */
gboolean cs_tree_search(const cs_platform *c, int n, int iterations, const cs_engine_config *ec, FILE *log,
                        cs_tree_choice *best, GError **err);

#endif
