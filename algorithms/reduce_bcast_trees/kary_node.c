/* "kary-node": a family for the search Section 5.3 calls for (the three
 * factors: children per process, depth, messages on the network vs inside a
 * node), not a configuration of the paper: a k-ary tree over the nodes'
 * leaders with local groups under each leader.  fanout = k (0 = 2),
 * groups_per_node = g (0 = 1).  With k >= nodes - 1 and g = 1 its scripts
 * are those of "hierarchical"; k = 1 chains the leaders.
 *
 * Rule (placement read from node_of only):
 *   - nodes are numbered in order of their lowest rank (rank 0's node is
 *     node 0); a node's leader is its lowest rank;
 *   - each node's ranks are cut into g groups of consecutive ranks as in
 *     "hierarchical" (a group's lowest rank is its local root, the leader
 *     roots the first group); members send to their local root, which
 *     receives from them in rank order;
 *   - local roots other than the leader then send to their node's leader,
 *     which receives from them in rank order;
 *   - leaders form a k-ary heap in node order: node i's leader receives from
 *     the leaders of nodes k*i+1 .. k*i+k (those that exist, in that order)
 *     after its local partial sums, then sends to node (i-1)/k's leader;
 *   - broadcast: the reduce run backwards (cs_tg_mirror_bcast): a leader
 *     receives from its parent leader, sends to its child leaders (last
 *     first), then to its node's local roots and its own members (highest
 *     rank first).
 * Messages of one reduce + broadcast: 2 (n - 1), 2 (nodes - 1) of them
 * across nodes, whatever g; depth (longest chain of messages to rank 0): up
 * to 2 inside a node plus the depth of the last node in the heap
 * (ceil(log_k((k - 1) nodes + 1)) - 1 for k >= 2).
 * Choices: local partial sums before the child leaders' (ready sooner);
 * leaders' heap in node order rather than by distance (the clusters are
 * one switch). */
#include "algorithms/reduce_bcast_trees/tree_gen_util.h"
#include "algorithms/shapes/tree_shapes.h"

static void add_roots_to_leaders(cs_tree_script *s, const cs_tg_layout *l)
{
  for (int r = 0; r < l->n; r++) {
    int lead = l->leader[l->node[r]];
    if (l->group_root[r] != r || r == lead)
      continue;
    cs_ts_add(s, CS_TS_REDUCE, lead, CS_TS_RECV, r);
    cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_SEND, lead);
  }
}

static void add_leader_heap(cs_tree_script *s, const cs_tg_layout *l, int k)
{
  for (int i = 0; i < l->nnodes; i++) {
    int64_t first = kary_first_child(i, k);
    for (int c = 0; c < kary_nchildren(i, k, l->nnodes); c++)
      cs_ts_add(s, CS_TS_REDUCE, l->leader[i], CS_TS_RECV, l->leader[first + c]);
    if (i > 0)
      cs_ts_add(s, CS_TS_REDUCE, l->leader[i], CS_TS_SEND, l->leader[kary_parent(i, k)]);
  }
}

cs_tree_script *cs_tree_gen_kary_node(const cs_tree_gen_params *prm)
{
  if (!cs_tg_params_ok(prm, true) || prm->fanout < 0 || prm->groups_per_node < 0)
    return NULL;
  int k = prm->fanout > 0 ? prm->fanout : 2;
  cs_tree_script *s = cs_tg_script(prm, "kary-node");
  if (!s)
    return NULL;
  cs_tg_layout *l = cs_tg_layout_new(prm, prm->groups_per_node);
  cs_tg_add_group_reduce(s, l);
  add_roots_to_leaders(s, l);
  add_leader_heap(s, l, k);
  cs_tg_mirror_bcast(s);
  cs_tg_layout_free(l);
  return s;
}
