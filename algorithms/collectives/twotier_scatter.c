/* Two-tier scatter (seed 001, Section 5.1), root = rank 0.
 *
 * Units: nunits = p, unit r = rank r's block.  Core 0 of each node acts for
 * the node.  Supernode t != 0 is reached over the L2 link 0 -> t, which
 * leaves node G_t = gateway(0, t) of supernode 0 and lands on node
 * L_t = landing(0, t) of t.
 *
 * "two-tier" (the four steps of the text, in this order):
 *   1. root -> core 0 of every node n != 0 of supernode 0: the blocks of every
 *      supernode t with G_t = n (one message per arithmetic progression of
 *      those t; PERCS: one message, t = n, n+nps, ...).
 *   2. core 0 of node G_t of supernode 0 (the root itself when G_t = 0)
 *      -> core 0 of node L_t of t: the blocks of supernode t.
 *   3. the node holding its supernode's blocks (node 0 of supernode 0, node
 *      L_t of t) -> core 0 of every other node of its supernode: that node's
 *      blocks.
 *   4. core 0 -> every other core of its node: the core's block.
 *   The landing node of an L2 link forwards (step 3); the root sends a node of
 *   supernode 0 its own blocks in step 3, separately from step 1.
 *
 * "two-tier-direct" (text, last paragraph: "direct message send"): the root
 * sends every rank its block in one message (tag = rank - 1); the network
 * routes it over the same links as above.
 *
 * Costs (sim/contracts/cost.h; Table 2's n beta max(1/nps, 1/sn) takes the
 * larger of steps 1 and 2, we add them: a gateway forwards a supernode's
 * blocks once they have all arrived, store and forward, as the schedule
 * does):
 * "two-tier": the four steps one after another, through the gateway node
 *   with the most supernodes behind it; everything the root sends off its
 *   node leaves at once (its port).
 * "two-tier-direct": one step of p-1 messages (tt_cost_direct). */
#include "algorithms/collectives/twotier.h"

enum { STEP_TO_GATEWAYS = 1, STEP_OVER_L2, STEP_IN_SUPERNODE, STEP_IN_NODE };

static bool plan(cs_sched_params *prm, GError **err)
{
  prm->nunits = prm->p;
  return tt_check_tags(prm, "two-tier scatter", err);
}

static int64_t supernode_scale(const cs_sched_params *prm)
{
  return tt_ranks_per_supernode(prm) * tt_units_per_rank(prm);
}

/* Steps 1 and 2 for a node of supernode 0. */
static void supernode0_to_gateways_and_l2(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  tt_buckets g;
  tt_by_gateway(prm, 0, &g);
  int64_t scale = supernode_scale(prm);
  if (w->node == 0) {
    for (int64_t n = 1; n < prm->tt->nps; n++)
      tt_ops_bucket(out, prm, CS_OP_SEND, tt_leader(prm, 0, n), &g, n, scale, STEP_TO_GATEWAYS, 0);
  } else {
    tt_ops_bucket(out, prm, CS_OP_RECV, 0, &g, w->node, scale, STEP_TO_GATEWAYS, 0);
  }
  for (int64_t i = 0; i < tt_bucket_size(&g, w->node); i++) {
    int64_t t = tt_bucket(&g, w->node)[i];
    cs_ops_send(out, tt_leader(prm, t, tt_landing(prm, 0, t)), tt_tag(prm, STEP_OVER_L2, 0, 0),
                tt_supernode_units(prm, t));
  }
  tt_buckets_free(&g);
}

/* Step 3: node `holder` of supernode s sends every other node its blocks. */
static void spread_in_supernode(const cs_sched_params *prm, const tt_where *w, int64_t holder, cs_oplist *out)
{
  int64_t unit_step = prm->tt->cpn * tt_units_per_rank(prm);
  if (w->node == holder)
    tt_ops_other_nodes(out, prm, CS_OP_SEND, w->sn, holder, tt_tag(prm, STEP_IN_SUPERNODE, 0, holder),
                       tt_node_units(prm, w->sn, 0), unit_step);
  else
    cs_ops_recv(out, tt_leader(prm, w->sn, holder), tt_tag(prm, STEP_IN_SUPERNODE, 0, holder + w->node),
                tt_node_units(prm, w->sn, w->node));
}

static void leader_ops(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  if (w->sn == 0) {
    supernode0_to_gateways_and_l2(prm, w, out);
    spread_in_supernode(prm, w, 0, out);
    return;
  }
  int64_t landing = tt_landing(prm, 0, w->sn);
  if (w->node == landing)
    cs_ops_recv(out, tt_leader(prm, 0, tt_gateway(prm, 0, w->sn)), tt_tag(prm, STEP_OVER_L2, 0, 0),
                tt_supernode_units(prm, w->sn));
  spread_in_supernode(prm, w, landing, out);
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  tt_where w = tt_locate(prm, rank);
  if (w.core == 0)
    leader_ops(prm, &w, out);
  tt_node_scatter(out, prm, rank, STEP_IN_NODE);
}

/* ---- two-tier-direct ---- */

static void ops_direct(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  tt_direct_with_root(out, prm, rank, true);
}

/* ---- costs ---- */

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  int64_t nps = prm->tt->nps, cpn = prm->tt->cpn, behind = tt_most_gateways(prm, 0, 1);
  double b = tt_block_bytes(prm), S = tt_supernode_bytes(prm);
  double t = tt_cost_out(c, CS_LVL_NODE, nps - 1, (double)cpn * b) + tt_cost_node_spread(prm, c, b);
  if (prm->tt->sn < 2)
    return t;
  t += tt_cost_out(c, CS_LVL_GATEWAY, tt_most_gateways(prm, 0, 0), S);
  if (behind == 0)
    return t;
  cs_cost_step s = cs_cost_fan(CS_LVL_NODE, (double)(nps - 1), (double)behind * S);
  s.port_bytes = (double)(prm->p - cpn) * b;
  return t + cs_cost_step_time(c, &s);
}

static double cost_direct(const cs_sched_params *prm, const cs_cost_params *c) { return tt_cost_direct(prm, c, true); }

const cs_coll_algo cs_algo_twotier_scatter = {
    "two-tier", CS_COLL_SCATTER,
    "SDTA (Sec. 5.1): root -> gateway nodes of supernode 0 -> L2 -> landing node -> nodes -> cores", plan, ops, true,
    cost, "[sn > 1: fan_1(nps-1, kg*S) with the root's port at (p-cpn)*b, + fan_g(kG, S)] + fan_1(nps-1, cpn*b) + "
          "fan_0(cpn-1, b), S = nps*cpn*b, kG (kg): most L2 links of a node of supernode 0 (but the root's)"};

const cs_coll_algo cs_algo_twotier_scatter_direct = {
    "two-tier-direct", CS_COLL_SCATTER, "Sec. 5.1 last paragraph: the root sends every rank its block directly",
    cs_plan_unit_per_rank, ops_direct, false, cost_direct, TT_DIRECT_COST("(p-1)*o_send + o_recv")};
