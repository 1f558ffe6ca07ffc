/* Two-tier reduce-scatter (seed 001, Section 5.4, "Reduce-Scatter"):
 * the owner-based clique reduction of Sec. 5.4 at core, node and supernode
 * level, the supernode level owning what its cores must receive.
 *
 * Units: nunits = p, unit r = rank r's block (so every split below is exact:
 * a core owns p/cpn units, a supernode's part is nps*cpn units, a node's
 * piece of it cpn units).  P_u = the blocks of supernode u's ranks.
 * Core 0 of each node acts for the node.  Steps, in this order:
 *   1-2. inside every node: core c owns units [c*p/cpn, (c+1)*p/cpn); every
 *      core sends each owner its part, owners combine, owners send the
 *      combined part to core 0 (Sec. 5.4 steps 1-4 with k = cpn).
 *   3. inside every supernode s (node level): P_u (u != s) is owned by node
 *      gateway(s, u), whose L2 link leads to u; P_s by the node owning fewest
 *      parts (PERCS: node s mod nps, so each node owns sn/nps parts).  Every
 *      node sends each owner the parts it owns (one message per arithmetic
 *      progression); owners combine.  Nothing is collected at node 0.
 *   4. supernode level: node gateway(s, u) -> node landing(s, u) of u: P_u.
 *      The landing node starts its partial sum of P_u (RECV) unless it owns
 *      P_u from step 3, then adds (RECV_REDUCE).
 *   5. inside every supernode u: every node holding a partial sum of P_u (the
 *      step-3 owner of P_u and the landing nodes) sends every other node j
 *      its piece of P_u (node j's blocks); node j combines them: the first
 *      replaces (RECV) if j held none, the rest add.
 *   6. core 0 -> every other core of its node: the core's finished block.
 *
 * Cost (sim/contracts/cost.h; Table 2's n beta (1/nps + 1/sn + 1/(sn nps))
 * + 2 n gamma charges all combining to one process, ours is spread over
 * the owners, who combine at once): the six steps one after another, each
 * at its busiest node, a receiver combining everything it receives (gamma,
 * what the timed run charges). */
#include "algorithms/collectives/twotier.h"

enum { STEP_IN_NODE = 1, STEP_NODE_LEVEL = 3, STEP_SCATTER_PART = 5, STEP_OUT_NODE };

static bool plan(cs_sched_params *prm, GError **err)
{
  prm->nunits = prm->p;
  return tt_check_tags(prm, "two-tier reduce-scatter", err);
}

static bool all_true(const bool *x, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    if (!x[i])
      return false;
  return true;
}

/* Step 5. */
static void scatter_part_in_supernode(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  int64_t s = w->sn, me = w->node, nps = prm->tt->nps;
  bool *holder = g_new(bool, nps);
  tt_part_holders(prm, s, holder);
  int32_t tag0 = tt_tag(prm, STEP_SCATTER_PART, 0, me);
  cs_units mine = tt_node_units(prm, s, me);
  if (holder[me])
    tt_ops_other_nodes(out, prm, CS_OP_SEND, s, me, tag0, tt_node_units(prm, s, 0),
                       prm->tt->cpn * tt_units_per_rank(prm));
  if (all_true(holder, nps)) {
    tt_ops_other_nodes(out, prm, CS_OP_RECV_REDUCE, s, me, tag0, mine, 0);
  } else {
    bool live = holder[me];
    for (int64_t k = 0; k < nps; k++) {
      if (k == me || !holder[k])
        continue;
      tt_ops_one(out, live ? CS_OP_RECV_REDUCE : CS_OP_RECV, tt_leader(prm, s, k), tag0 + (int32_t)k, mine);
      live = true;
    }
  }
  g_free(holder);
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  tt_where w = tt_locate(prm, rank);
  tt_node_reduce(out, prm, rank, STEP_IN_NODE);
  if (w.core == 0) {
    tt_reduce_exchange(out, prm, &w, STEP_NODE_LEVEL);
    scatter_part_in_supernode(prm, &w, out);
  }
  tt_node_scatter(out, prm, rank, STEP_OUT_NODE);
}

/* ---- cost ---- */

/* Step 5: every holder sends node j its piece; j combines the h pieces. */
static double cost_scatter_part(const cs_sched_params *prm, const cs_cost_params *c)
{
  int64_t nps = prm->tt->nps, h = tt_count_holders(prm, 0);
  if (nps < 2)
    return 0;
  double piece = (double)prm->tt->cpn * tt_block_bytes(prm);
  cs_cost_step s = cs_cost_fan(CS_LVL_NODE, (double)(nps - 1), piece);
  s.port_bytes = (double)(nps - 1 > h ? nps - 1 : h) * piece;
  s.recvs = (double)h;
  s.combined = (double)h * piece;
  return cs_cost_step_time(c, &s);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return tt_cost_node_reduce(prm, c) + tt_cost_reduce_exchange(prm, c) + cost_scatter_part(prm, c) +
         tt_cost_node_spread(prm, c, tt_block_bytes(prm));
}

const cs_coll_algo cs_algo_twotier_reduce_scatter = {
    "two-tier", CS_COLL_REDUCE_SCATTER,
    "Sec. 5.4: owner-based reductions at core, node (owners = L2 gateways) and supernode level, then scatter", plan,
    ops, true, cost, TT_REDUCE_EXCHANGE_COST " + [nps > 1: fan_1(nps-1, cpn*b), h pieces in, + h*cpn*b*g] + "
                     "fan_0(cpn-1, b), " TT_REDUCE_EXCHANGE_WHERE
                     ", h: nodes holding a partial sum of their supernode's part"};
