/* The tree-construction family: one line per algorithm (name, description,
 * entry point, accepts several colours, exact message count or NULL,
 * total message work for the progress line or NULL, that count as a
 * formula over the record's fields or NULL).  The
 * CLI lists and selects algorithms from this table (collsim tree --list). */
#include "algorithms/spanning_trees/tree_algo.h"

#include <string.h>

void centralized_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);
void shrink_balance_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);
void rank_hash_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);
void rank_hash_split_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);
void comm_split_run(cs_proc *p, const cs_tree_ctx *ctx, cs_tree_node *out);
uint64_t centralized_messages(const cs_tree_shape *s);
uint64_t rank_and_hash_messages(const cs_tree_shape *s);
uint64_t comm_split_messages(const cs_tree_shape *s);
double comm_split_work(const cs_tree_shape *s);

const cs_tree_algo cs_tree_algos[] = {
  {"centralized", "gatherv of member ids up the parent tree, scatter building the new tree (Sec. 3)",
   centralized_run, 0, centralized_messages, NULL, "n - 1 + (1 - root_joins) + m - 1 (m >= 1; n - 1 when m = 0)"},
  {"shrink-balance", "shrink the parent tree with leaf fillers, then supplier/consumer balancing (Sec. 4)",
   shrink_balance_run, 0, NULL, NULL, NULL},
  {"rank-hash", "count reduction, rank-range assignment, id discovery through hash intermediaries (Sec. 5)",
   rank_hash_run, 0, rank_and_hash_messages, NULL,
   "n - 1 + s + 3*m - 2 + ceil((m - 1)/k) (m >= 1; n - 1 when m = 0)"},
  {"rank-hash-split", "multi-colour Rank-and-Hash: per-colour counts and ranks (Sec. 6, Table 1)",
   rank_hash_split_run, 1, rank_and_hash_messages, NULL,
   "n - 1 + s + the sum over colours of 3*m_c - 2 + ceil((m_c - 1)/k) (colours with m_c >= 1)"},
  {"comm-split", "MPI_Comm_split baseline: allgather of (colour, key) then a sort (MPICH/Open MPI)",
   comm_split_run, 1, comm_split_messages, comm_split_work, "n * ceil(log2(n))"},
};
const int cs_tree_algo_count = (int)(sizeof cs_tree_algos / sizeof cs_tree_algos[0]);

const cs_tree_algo *cs_tree_algo_find(const char *name)
{
  for (int i = 0; i < cs_tree_algo_count; i++)
    if (strcmp(cs_tree_algos[i].name, name) == 0)
      return &cs_tree_algos[i];
  return NULL;
}
