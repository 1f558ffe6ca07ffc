/* Two-tier gather (seed 001, Section 5.1: "Gather can be performed using this
 * algorithm in the reverse order"), root = rank 0.
 *
 * Units: nunits = p, unit r = rank r's block.  Core 0 of each node acts for
 * the node.  Supernode t != 0 reaches supernode 0 over the L2 link t -> 0,
 * which leaves node C_t = gateway(t, 0) of t and lands on node
 * A_t = landing(t, 0) of supernode 0 (reversing the scatter's links: under
 * the PERCS wiring these are the scatter's L_t and G_t).
 *
 * "two-tier" (the scatter's steps reversed):
 *   1. every core -> core 0 of its node: its block.
 *   2. core 0 of every node of t -> core 0 of node C_t (t != 0), and of
 *      every node of supernode 0 -> the root: the node's blocks.
 *   3. core 0 of node C_t -> core 0 of node A_t of supernode 0: the blocks of
 *      supernode t.
 *   4. core 0 of every node n != 0 of supernode 0 -> root: the blocks of the
 *      supernodes that landed on n (one message per arithmetic progression of
 *      those t, after all of them arrived).
 *
 * "two-tier-direct" (the scatter's direct message send reversed): every rank
 * sends its block to the root in one message (tag = rank - 1).
 *
 * Costs (sim/contracts/cost.h): the scatter's, steps reversed: the node
 * receiving the most L2 links, then the root receiving from every landing
 * node of supernode 0 at once (its port); direct: tt_cost_direct. */
#include "algorithms/collectives/twotier.h"

enum { STEP_IN_NODE = 1, STEP_IN_SUPERNODE, STEP_OVER_L2, STEP_TO_ROOT };

static bool plan(cs_sched_params *prm, GError **err)
{
  prm->nunits = prm->p;
  return tt_check_tags(prm, "two-tier gather", err);
}

/* Step 2: every node of supernode s sends its blocks to node `collector`. */
static void collect_in_supernode(const cs_sched_params *prm, const tt_where *w, int64_t collector, cs_oplist *out)
{
  int64_t unit_step = prm->tt->cpn * tt_units_per_rank(prm);
  if (w->node == collector)
    tt_ops_other_nodes(out, prm, CS_OP_RECV, w->sn, collector, tt_tag(prm, STEP_IN_SUPERNODE, 0, collector),
                       tt_node_units(prm, w->sn, 0), unit_step);
  else
    cs_ops_send(out, tt_leader(prm, w->sn, collector), tt_tag(prm, STEP_IN_SUPERNODE, 0, collector + w->node),
                tt_node_units(prm, w->sn, w->node));
}

/* Steps 3 (receiving side) and 4 for a node of supernode 0. */
static void supernode0_from_l2_to_root(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  tt_landed_to_root(out, prm, w, STEP_OVER_L2, STEP_TO_ROOT, tt_ranks_per_supernode(prm) * tt_units_per_rank(prm));
}

static void leader_ops(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  if (w->sn == 0) {
    collect_in_supernode(prm, w, 0, out);
    supernode0_from_l2_to_root(prm, w, out);
    return;
  }
  int64_t collector = tt_gateway(prm, w->sn, 0);
  collect_in_supernode(prm, w, collector, out);
  if (w->node == collector)
    cs_ops_send(out, tt_leader(prm, 0, tt_landing(prm, w->sn, 0)), tt_tag(prm, STEP_OVER_L2, 0, 0),
                tt_supernode_units(prm, w->sn));
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  tt_where w = tt_locate(prm, rank);
  tt_node_gather(out, prm, rank, STEP_IN_NODE);
  if (w.core == 0)
    leader_ops(prm, &w, out);
}

/* ---- two-tier-direct ---- */

static void ops_direct(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  tt_direct_with_root(out, prm, rank, false);
}

/* ---- costs ---- */

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  int64_t nps = prm->tt->nps, cpn = prm->tt->cpn;
  double b = tt_block_bytes(prm);
  double t = tt_cost_node_collect(prm, c, b) + tt_cost_in(c, CS_LVL_NODE, nps - 1, (double)cpn * b);
  return prm->tt->sn > 1 ? t + tt_cost_parts_to_root(prm, c) : t;
}

static double cost_direct(const cs_sched_params *prm, const cs_cost_params *c)
{
  return tt_cost_direct(prm, c, false);
}

const cs_coll_algo cs_algo_twotier_gather = {
    "two-tier", CS_COLL_GATHER,
    "SDTA (Sec. 5.1 reversed): cores -> core 0 -> gateway to supernode 0 -> L2 -> landing node -> root", plan,
    ops, true, cost, "fanin_0(cpn-1, b) + fanin_1(nps-1, cpn*b) + [sn > 1: fanin_g(kL, S) + fanin_1(nps-1, kl*S) with "
                     "the root's port at the parts landed off its node], S = nps*cpn*b, kL (kl): most L2 links "
                     "landing on a node of supernode 0 (but the root's)"};

const cs_coll_algo cs_algo_twotier_gather_direct = {
    "two-tier-direct", CS_COLL_GATHER, "Sec. 5.1 reversed, direct: every rank sends its block to the root",
    cs_plan_unit_per_rank, ops_direct, false, cost_direct, TT_DIRECT_COST("o_send + (p-1)*o_recv")};
