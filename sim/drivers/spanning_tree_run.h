/* One tree-construction experiment: draw the group, run the algorithm on every
 * process between the bracket broadcast and reduction, verify, summarise. */
#ifndef COLLSIM_TREE_RUN_H
#define COLLSIM_TREE_RUN_H

#include "algorithms/spanning_trees/tree_algo.h"
#include "sim/drivers/members.h"
#include "sim/drivers/spanning_tree_result.h"
#include "sim/drivers/procs_engine.h"

typedef struct cs_tree_params {
  const cs_tree_algo *algo;
  int n;
  double f;                  /* ignored when members_file is set */
  int k;
  int colors;
  cs_color_rule color_rule;
  uint64_t seed;
  const char *members_file;
  const cs_group *group;     /* the group itself (comm compare's), or NULL: members_file or drawn */
  gboolean bracket;          /* default TRUE */
  gboolean verify;           /* default TRUE */
  const char *platform_desc; /* for the output */
  cs_engine_config engine;
  cs_procs_engine procs;     /* SimGrid (default) or the native engine */
} cs_tree_params;

/* Returns 0 on success, 1 on internal failure or failed verification (message
 * in err), 2 on bad input. */
int cs_tree_run(const cs_tree_params *prm, cs_tree_result *res, GError **err);

#endif
