/* The reduce/broadcast tree-script generators (seed 002): one line per
 * family, each defined in the file named after it.  The CLI lists and
 * selects generators from this table by name (collsim allreduce --trees
 * NAME, collsim tree-script --from NAME).  Every generator returns a new
 * script (root 0, prm->order) or NULL when prm is unusable (n < 1; for the
 * families that read the placement, node_of missing or negative, or a
 * negative groups_per_node / fanout). */
#include "algorithms/reduce_bcast_trees/tree_gen.h"

#include <string.h>

cs_tree_script *cs_tree_gen_lam(const cs_tree_gen_params *prm);
cs_tree_script *cs_tree_gen_lam7(const cs_tree_gen_params *prm);
cs_tree_script *cs_tree_gen_linear(const cs_tree_gen_params *prm);
cs_tree_script *cs_tree_gen_hierarchical(const cs_tree_gen_params *prm);
cs_tree_script *cs_tree_gen_kary_node(const cs_tree_gen_params *prm);

static const cs_tree_gen gens[] = {
  {"lam", "LAM-MPI 6.5 default: linear up to 4 processes, else binomial reduce (lowest bit) and "
          "hibit broadcast trees, in LAM's order (Sec. 3, Fig. 2)",
   cs_tree_gen_lam},
  {"lam7", "LAM-MPI 7.0's later default: as lam, but the broadcast is the reduce tree backwards",
   cs_tree_gen_lam7},
  {"linear", "every process sends to rank 0, which receives and sends in rank order (Sec. 5.1)",
   cs_tree_gen_linear},
  {"hierarchical", "local partial sums per node (or per group of a node) sent straight to rank 0; "
                   "the root's group sends directly (Sec. 5.1 scheme 1, Sec. 5.2 groups)",
   cs_tree_gen_hierarchical},
  {"kary-node", "k-ary tree (fanout, default 2) over node leaders, local groups under each leader",
   cs_tree_gen_kary_node},
};

size_t cs_tree_gen_count(void) { return sizeof gens / sizeof gens[0]; }

const cs_tree_gen *cs_tree_gen_at(size_t i) { return i < cs_tree_gen_count() ? &gens[i] : NULL; }

const cs_tree_gen *cs_tree_gen_find(const char *name)
{
  for (size_t i = 0; name && i < cs_tree_gen_count(); i++)
    if (strcmp(gens[i].name, name) == 0)
      return &gens[i];
  return NULL;
}
