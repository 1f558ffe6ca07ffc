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
 * is node k: it forwards sn/nps supernodes, one fewer when k = u mod nps.
 *
 * Cost (sim/contracts/cost.h; Table 2's n beta (1/nps + 1/sn + 1/(sn nps))
 * is steps 4, 3 and 2 on PERCS): the five steps one after another, each at
 * its busiest node: step 3 at the node with the most L2 links (out or in),
 * step 4 at the node whose port carries the most (its landed supernodes to
 * nps-1 nodes out, the others' landed supernodes in: Dragonfly's terminal
 * link, the bottleneck there). */
#include "algorithms/collectives/twotier.h"

#include <math.h>

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

/* ---- cost ---- */

/* Step 4: node k forwards the kl_k supernodes that landed on it to nps-1
 * nodes and receives the sn-1-kl_k others. */
static double cost_forward(const cs_sched_params *prm, const cs_cost_params *c)
{
  int64_t nps = prm->tt->nps, sn = prm->tt->sn;
  double S = tt_supernode_bytes(prm), worst = 0;
  tt_buckets l;
  tt_by_landing(prm, 0, &l);
  for (int64_t k = 0; k < nps; k++) {
    int64_t kl = tt_bucket_size(&l, k);
    cs_cost_step s = cs_cost_fan(CS_LVL_NODE, (double)(nps - 1), (double)kl * S);
    s.port_bytes = fmax(s.port_bytes, (double)(sn - 1 - kl) * S);
    s.recvs = (double)(nps - 1);
    worst = fmax(worst, cs_cost_step_time(c, &s));
  }
  tt_buckets_free(&l);
  return worst;
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  int64_t nps = prm->tt->nps, cpn = prm->tt->cpn;
  double b = tt_block_bytes(prm), S = tt_supernode_bytes(prm);
  double t = tt_cost_node_collect(prm, c, b) + tt_cost_exchange(c, CS_LVL_NODE, nps - 1, nps - 1, (double)cpn * b) +
             tt_cost_node_spread(prm, c, (double)prm->bytes);
  if (prm->tt->sn < 2)
    return t;
  t += tt_cost_exchange(c, CS_LVL_GATEWAY, tt_most_gateways(prm, 0, 0), tt_most_landings(prm, 0, 0), S);
  return nps < 2 ? t : t + cost_forward(prm, c);
}

const cs_coll_algo cs_algo_twotier_allgather = {
    "two-tier", CS_COLL_ALLGATHER,
    "SDTA (Sec. 5.3): node gather, L1 all-to-all, L2 all-to-all, landing nodes forward, node bcast", plan, ops, true,
    cost, "fanin_0(cpn-1, b) + xchg_1(nps-1, cpn*b) + [sn > 1: xchg_g(k3, S) + max_k xchg_1(nps-1, kl_k*S) with "
          "node k's port at max((nps-1)*kl_k, sn-1-kl_k)*S] + fan_0(cpn-1, n), S = nps*cpn*b, k3: most L2 links of a "
          "node (out or in), kl_k: supernodes landing on node k"};
