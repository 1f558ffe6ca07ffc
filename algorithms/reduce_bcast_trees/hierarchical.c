/* "hierarchical": seed 002, Section 5.1, "hierarchal scheme 1": "Rank 0 is
 * always placed on node 0, so all other processes on node 0 contribute
 * directly to rank 0.  On the other nodes, a local reduction is done within
 * each node before the nodes partial sum is sent to process 0."  With
 * groups_per_node = g > 1, Section 5.2's fastest 8-way configuration:
 * "partitioning the processes on each node into two groups of 4 processes.
 * Each group computes a partial sum for that group, and forwards it
 * directly to the root process."  groups_per_node 0 means 1.
 *
 * Rule (placement read from node_of only; rank 0's node is "the root's
 * node", whatever its number):
 *   - each node's ranks, in rank order, are cut into g groups of
 *     consecutive ranks, as even as possible (the first count % g groups one
 *     larger; fewer ranks than groups gives one-rank groups); a group's
 *     lowest rank is its local root;
 *   - every member sends to its local root, which receives from its members
 *     in rank order;
 *   - every local root other than rank 0 then sends its group's partial sum
 *     directly to rank 0;
 *   - rank 0 is the local root of its own group (it is the lowest rank of
 *     its node), so that group's members send directly to rank 0: with
 *     g = 1 the whole root node does, as the paper says.  With g > 1 the
 *     root node's other groups are treated like any node's groups: a local
 *     root collects and forwards to rank 0 (inside the node);
 *   - rank 0 receives its own group's members (rank order), then the local
 *     roots on its own node (rank order), then the other nodes' local roots
 *     (rank order);
 *   - broadcast: the reduce run backwards (cs_tg_mirror_bcast): rank 0 first
 *     sends to the other nodes' local roots (highest rank first), then to its
 *     node's local roots, then to its own members; a local root receives
 *     from 0 and sends to its members (highest rank first).
 * Messages of one reduce + broadcast: 2 (n - 1); across nodes:
 * 2 * (number of groups off the root's node), 2 (nodes - 1) for g = 1.
 * Left open by the paper: the receive order (local first: those partial
 * sums are ready soonest), the split of uneven nodes, the broadcast order. */
#include "algorithms/reduce_bcast_trees/tree_gen_util.h"

/* Local roots other than rank 0 send to rank 0: those on rank 0's node
 * first when `local`, else the others; in rank order either way. */
static void add_roots_to_zero(cs_tree_script *s, const cs_tg_layout *l, bool local)
{
  for (int r = 1; r < l->n; r++) {
    if (l->group_root[r] != r || (l->node[r] == l->node[0]) != local)
      continue;
    cs_ts_add(s, CS_TS_REDUCE, 0, CS_TS_RECV, r);
    cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_SEND, 0);
  }
}

cs_tree_script *cs_tree_gen_hierarchical(const cs_tree_gen_params *prm)
{
  if (!cs_tg_params_ok(prm, true) || prm->groups_per_node < 0)
    return NULL;
  cs_tree_script *s = cs_tg_script(prm, "hierarchical");
  if (!s)
    return NULL;
  cs_tg_layout *l = cs_tg_layout_new(prm, prm->groups_per_node);
  cs_tg_add_group_reduce(s, l);
  add_roots_to_zero(s, l, true);
  add_roots_to_zero(s, l, false);
  cs_tg_mirror_bcast(s);
  cs_tg_layout_free(l);
  return s;
}
