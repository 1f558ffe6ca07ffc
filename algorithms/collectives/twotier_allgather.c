/* Two-tier allgather (seed 001, Section 5.3).
 *
 * Units: nunits = p, unit r = rank r's block.  Core 0 of each node acts for
 * the node.  Steps, in this order:
 *   1. every core -> core 0 of its node: its block.
 *   2. core 0 of every node -> core 0 of every other node of its supernode:
 *      the node's blocks (all-to-all over L1; now every node holds its
 *      supernode's blocks).
 *   3. for every ordered pair of supernodes s != u: core 0 of node
 *      gateway(s, u) of s -> core 0 of node landing(s, u) of u: the blocks of
 *      supernode s (all-to-all over L2).
 *   4. core 0 of every node that received in step 3 -> core 0 of every other
 *      node of its supernode: the supernodes it received (one message per
 *      arithmetic progression of them, after all arrived).  The landing node
 *      forwards.
 *   5. core 0 -> every other core of its node: every block.
 * Under PERCS the landing node of supernode u's links from s = k, k+nps, ...
 * is node k: it forwards sn/nps supernodes, one fewer when k = u mod nps. */
#include "algorithms/collectives/twotier.h"

enum { STEP_IN_NODE = 1, STEP_IN_SUPERNODE, STEP_OVER_L2, STEP_FORWARD, STEP_OUT_NODE };

static bool plan(cs_sched_params *prm, GError **err)
{
  prm->nunits = prm->p;
  return tt_check_tags(prm, "two-tier allgather", err);
}

/* Step 2. */
static void exchange_in_supernode(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  int32_t tag0 = tt_tag(prm, STEP_IN_SUPERNODE, 0, w->node);
  tt_ops_other_nodes(out, prm, CS_OP_SEND, w->sn, w->node, tag0, tt_node_units(prm, w->sn, w->node), 0);
  tt_ops_other_nodes(out, prm, CS_OP_RECV, w->sn, w->node, tag0, tt_node_units(prm, w->sn, 0),
                     prm->tt->cpn * tt_units_per_rank(prm));
}

/* Step 3. */
static void exchange_over_l2(const cs_sched_params *prm, const tt_where *w, const tt_buckets *landed,
                             cs_oplist *out)
{
  int64_t s = w->sn;
  int32_t tag = tt_tag(prm, STEP_OVER_L2, 0, 0);
  tt_buckets g;
  tt_by_gateway(prm, s, &g);
  for (int64_t k = 0; k < tt_bucket_size(&g, w->node); k++) {
    int64_t u = tt_bucket(&g, w->node)[k];
    cs_ops_send(out, tt_leader(prm, u, tt_landing(prm, s, u)), tag, tt_supernode_units(prm, s));
  }
  tt_buckets_free(&g);
  for (int64_t k = 0; k < tt_bucket_size(landed, w->node); k++) {
    int64_t t = tt_bucket(landed, w->node)[k];
    cs_ops_recv(out, tt_leader(prm, t, tt_gateway(prm, t, s)), tag, tt_supernode_units(prm, t));
  }
}

/* Step 4. */
static void forward_in_supernode(const cs_sched_params *prm, const tt_where *w, const tt_buckets *landed,
                                 cs_oplist *out)
{
  int64_t me = w->node, scale = tt_ranks_per_supernode(prm) * tt_units_per_rank(prm);
  size_t n = (size_t)tt_bucket_size(landed, me);
  tt_prog *g = g_new(tt_prog, n > 0 ? n : 1);
  size_t ng = tt_progressions(tt_bucket(landed, me), n, g);
  for (size_t k = 0; k < ng; k++)
    tt_ops_other_nodes(out, prm, CS_OP_SEND, w->sn, me, tt_tag(prm, STEP_FORWARD, (int64_t)k, me),
                       tt_prog_units(g[k], scale), 0);
  g_free(g);
  for (int64_t k = 0; k < prm->tt->nps; k++)
    if (k != me)
      tt_ops_bucket(out, prm, CS_OP_RECV, tt_leader(prm, w->sn, k), landed, k, scale, STEP_FORWARD, k + me);
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  tt_where w = tt_locate(prm, rank);
  tt_node_gather(out, prm, rank, STEP_IN_NODE);
  if (w.core == 0) {
    tt_buckets landed;
    tt_by_landing(prm, w.sn, &landed);
    exchange_in_supernode(prm, &w, out);
    exchange_over_l2(prm, &w, &landed, out);
    forward_in_supernode(prm, &w, &landed, out);
    tt_buckets_free(&landed);
  }
  tt_node_bcast(out, prm, rank, STEP_OUT_NODE);
}

const cs_coll_algo cs_algo_twotier_allgather = {
    "two-tier", CS_COLL_ALLGATHER,
    "SDTA (Sec. 5.3): node gather, L1 all-to-all, L2 all-to-all, landing nodes forward, node bcast", plan, ops, true};
