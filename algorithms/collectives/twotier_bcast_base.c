/* Two-tier base broadcast (seed 001, Section 5.2, first paragraph: "the
 * approach used for Scatter if the entire data, without personalization, is
 * sent in the four steps"), root = rank 0.
 *
 * Units: nunits = 1 (the whole buffer).  Core 0 of each node acts for the
 * node.  Steps (the scatter's, each message carrying the whole buffer, every
 * node receiving it exactly once):
 *   1. root -> core 0 of every other node of supernode 0 (the scatter's steps
 *      1 and 3 for supernode 0 merged: the data is the same).
 *   2. core 0 of node gateway(0, t) of supernode 0 -> core 0 of node
 *      landing(0, t) of t, for every supernode t != 0.
 *   3. core 0 of node landing(0, t) -> core 0 of every other node of t.
 *   4. core 0 -> every other core of its node.
 *
 * Cost (sim/contracts/cost.h; the paper gives no formula for it, and it is
 * not the chunked broadcast's 3 n beta / nps): the four steps one after
 * another, each carrying the whole buffer, through the gateway node with
 * the most L2 links; the root's step-1 sends and its own L2 sends leave at
 * once (its port).  Step 1 is off the critical path when every L2 link of
 * supernode 0 leaves the root's node. */
#include "algorithms/collectives/twotier.h"

enum { STEP_IN_SUPERNODE0 = 1, STEP_OVER_L2, STEP_IN_SUPERNODE, STEP_IN_NODE };

static bool plan(cs_sched_params *prm, GError **err)
{
  prm->nunits = 1;
  return tt_check_tags(prm, "two-tier-base bcast", err);
}

/* Step 1 (or 3): node `holder` of w's supernode sends every other node the buffer. */
static void spread_in_supernode(const cs_sched_params *prm, const tt_where *w, int64_t holder, int step,
                                cs_oplist *out)
{
  cs_units all = cs_units_all(prm);
  if (w->node == holder)
    tt_ops_other_nodes(out, prm, CS_OP_SEND, w->sn, holder, tt_tag(prm, step, 0, holder), all, 0);
  else
    cs_ops_recv(out, tt_leader(prm, w->sn, holder), tt_tag(prm, step, 0, holder + w->node), all);
}

/* Step 2 for node n of supernode 0. */
static void send_over_l2(const cs_sched_params *prm, int64_t n, cs_oplist *out)
{
  tt_buckets g;
  tt_by_gateway(prm, 0, &g);
  for (int64_t i = 0; i < tt_bucket_size(&g, n); i++) {
    int64_t t = tt_bucket(&g, n)[i];
    cs_ops_send(out, tt_leader(prm, t, tt_landing(prm, 0, t)), tt_tag(prm, STEP_OVER_L2, 0, 0),
                cs_units_all(prm));
  }
  tt_buckets_free(&g);
}

static void leader_ops(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  if (w->sn == 0) {
    spread_in_supernode(prm, w, 0, STEP_IN_SUPERNODE0, out);
    send_over_l2(prm, w->node, out);
    return;
  }
  int64_t landing = tt_landing(prm, 0, w->sn);
  if (w->node == landing)
    cs_ops_recv(out, tt_leader(prm, 0, tt_gateway(prm, 0, w->sn)), tt_tag(prm, STEP_OVER_L2, 0, 0),
                cs_units_all(prm));
  spread_in_supernode(prm, w, landing, STEP_IN_SUPERNODE, out);
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  tt_where w = tt_locate(prm, rank);
  if (w.core == 0)
    leader_ops(prm, &w, out);
  tt_node_bcast(out, prm, rank, STEP_IN_NODE);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  int64_t nps = prm->tt->nps;
  double n = (double)prm->bytes;
  double t = tt_cost_out(c, CS_LVL_NODE, nps - 1, n) + tt_cost_node_spread(prm, c, n);
  if (prm->tt->sn < 2)
    return t;
  t += tt_cost_out(c, CS_LVL_GATEWAY, tt_most_gateways(prm, 0, 0), n);
  if (tt_most_gateways(prm, 0, 1) == 0) /* every L2 link leaves the root's node */
    return t;
  cs_cost_step first = cs_cost_fan(CS_LVL_NODE, (double)(nps - 1), n);
  first.port_bytes = (double)(nps - 1 + tt_gateways_at(prm, 0, 0)) * n;
  return t + cs_cost_step_time(c, &first);
}

const cs_coll_algo cs_algo_twotier_bcast_base = {
    "two-tier-base", CS_COLL_BCAST,
    "Sec. 5.2 base broadcast: the scatter's four steps, each carrying the whole buffer", plan, ops, true,
    cost, "[sn > 1: fan_1(nps-1, n) with the root's port at (nps-1+k0)*n (if a gateway is not the root's node), + "
          "fan_g(kG, n)] + fan_1(nps-1, n) + fan_0(cpn-1, n), kG: most L2 links of a node of supernode 0, k0: the "
          "root's"};
