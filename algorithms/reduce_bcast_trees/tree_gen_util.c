/* Helpers shared by the tree-script generators (see tree_gen_util.h). */
#include "algorithms/reduce_bcast_trees/tree_gen_util.h"

bool cs_tg_params_ok(const cs_tree_gen_params *prm, bool need_nodes)
{
  if (!prm || prm->n < 1)
    return false;
  if (!need_nodes)
    return true;
  if (!prm->node_of)
    return false;
  for (int r = 0; r < prm->n; r++)
    if (prm->node_of[r] < 0)
      return false;
  return true;
}

cs_tree_script *cs_tg_script(const cs_tree_gen_params *prm, const char *name)
{
  cs_tree_script *s = cs_ts_new(prm->n, name);
  if (!s)
    return NULL;
  s->root = 0;
  s->order = prm->order;
  return s;
}

/* node[r] = number of rank r's node, nodes numbered by lowest rank. */
static int number_nodes(const cs_tree_gen_params *prm, int *node)
{
  GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
  int nnodes = 0;
  for (int r = 0; r < prm->n; r++) {
    gpointer key = GINT_TO_POINTER(prm->node_of[r]), v;
    if (!g_hash_table_lookup_extended(seen, key, NULL, &v)) {
      v = GINT_TO_POINTER(nnodes++);
      g_hash_table_insert(seen, key, v);
    }
    node[r] = GPOINTER_TO_INT(v);
  }
  g_hash_table_destroy(seen);
  return nnodes;
}

/* Group roots of one node whose ranks, in rank order, are ranks[0..c). */
static void split_node(const int *ranks, int c, int groups, int *group_root)
{
  int base = c / groups, extra = c % groups, start = 0;
  for (int j = 0; j < groups && start < c; j++) {
    int size = base + (j < extra);
    for (int i = start; i < start + size; i++)
      group_root[ranks[i]] = ranks[start];
    start += size;
  }
}

/* ranks[] = all ranks packed by node, each node's in rank order; node k's
 * are ranks[start[k] .. start[k + 1]). */
static void pack_by_node(const cs_tg_layout *l, int *start, int *ranks)
{
  int *fill = g_new0(int, l->nnodes);
  for (int k = 0; k <= l->nnodes; k++)
    start[k] = 0;
  for (int r = 0; r < l->n; r++)
    start[l->node[r] + 1]++;
  for (int k = 0; k < l->nnodes; k++)
    start[k + 1] += start[k];
  for (int r = 0; r < l->n; r++)
    ranks[start[l->node[r]] + fill[l->node[r]]++] = r;
  g_free(fill);
}

cs_tg_layout *cs_tg_layout_new(const cs_tree_gen_params *prm, int groups)
{
  cs_tg_layout *l = g_new0(cs_tg_layout, 1);
  l->n = prm->n;
  l->node = g_new(int, l->n);
  l->group_root = g_new(int, l->n);
  l->nnodes = number_nodes(prm, l->node);
  l->leader = g_new(int, l->nnodes);
  int *start = g_new(int, l->nnodes + 1), *ranks = g_new(int, l->n);
  pack_by_node(l, start, ranks);
  for (int k = 0; k < l->nnodes; k++) {
    l->leader[k] = ranks[start[k]];
    split_node(ranks + start[k], start[k + 1] - start[k], groups < 1 ? 1 : groups, l->group_root);
  }
  g_free(ranks);
  g_free(start);
  return l;
}

void cs_tg_layout_free(cs_tg_layout *l)
{
  if (!l)
    return;
  g_free(l->node);
  g_free(l->group_root);
  g_free(l->leader);
  g_free(l);
}

void cs_tg_add_group_reduce(cs_tree_script *s, const cs_tg_layout *l)
{
  for (int r = 0; r < l->n; r++) {
    int gr = l->group_root[r];
    if (gr == r)
      continue;
    cs_ts_add(s, CS_TS_REDUCE, gr, CS_TS_RECV, r);
    cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_SEND, gr);
  }
}

void cs_tg_mirror_bcast(cs_tree_script *s)
{
  for (int r = 0; r < s->n; r++) {
    const cs_ts_list *red = &s->phase[CS_TS_REDUCE][r];
    for (int i = red->n - 1; i >= 0; i--) {
      cs_ts_kind k = red->cmd[i].kind == CS_TS_RECV ? CS_TS_SEND : CS_TS_RECV;
      cs_ts_add(s, CS_TS_BCAST, r, k, red->cmd[i].peer);
    }
  }
}
