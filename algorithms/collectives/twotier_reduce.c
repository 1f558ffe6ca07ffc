/* Two-tier reduce (seed 001, Section 5.4, "Reduce"), root = rank 0: the
 * owner-based clique reduction of Sec. 5.4 at core, node and supernode level.
 *
 * Units: nunits = p (the buffer spread over p units, so every split is
 * exact: a core owns p/cpn units, supernode u owns part P_u = units
 * [u*nps*cpn, (u+1)*nps*cpn), 1/sn of the buffer, and a node a piece of it).
 * Core 0 of each node acts for the node.  Steps, in this order:
 *   1-2. inside every node: owner-based reduction among the cores, collected
 *      at core 0 (as in reduce-scatter).
 *   3. node level, inside every supernode s: P_u (u != s) is owned by node
 *      gateway(s, u), P_s by the node owning fewest parts (PERCS: s mod nps);
 *      every node sends each owner its parts; owners combine and keep them
 *      ("left with the owner nodes and directly exchanged in the next step").
 *   4. supernode level: node gateway(s, u) -> node landing(s, u) of u: P_u
 *      (every supernode sends the owner supernode its part).
 *   5. supernode u combines P_u, itself by the owner-based clique reduction,
 *      among the nodes holding a partial sum of P_u (the step-3 owner and the
 *      landing nodes; PERCS: all nps nodes): P_u cut into one slice per holder
 *      (holder i of k owns units [i*S/k, (i+1)*S/k) of P_u, S = nps*cpn);
 *      every holder sends each other holder its slice; holders combine.
 *   6. every holder -> the collector of u, gateway(u, 0) (node 0 for u = 0):
 *      its finished slice.  (One holder: it sends P_u whole, if it is not the
 *      collector.)
 *   7. collector of u != 0 -> node landing(u, 0) of supernode 0: P_u.
 *   8. every node n != 0 of supernode 0 -> root: the parts that landed on it
 *      (one message per arithmetic progression of them).
 *
 * Cost (sim/contracts/cost.h; Table 2's n beta (1/nps + 2/sn) + 2 n gamma
 * charges all combining to one process, ours is spread over the owners):
 * the eight steps one after another, each at its busiest node, a receiver
 * combining everything it receives (gamma, what the timed run charges);
 * step 8 at the root, receiving from every landing node at once (its port). */
#include "algorithms/collectives/twotier.h"

enum {
  STEP_IN_NODE = 1,
  STEP_NODE_LEVEL = 3,
  STEP_PART_CLIQUE = 5,
  STEP_TO_COLLECTOR,
  STEP_TO_SUPERNODE0,
  STEP_TO_ROOT
};

static bool plan(cs_sched_params *prm, GError **err)
{
  prm->nunits = prm->p;
  return tt_check_tags(prm, "two-tier reduce", err);
}

static int64_t collector_of(const cs_sched_params *prm, int64_t s) { return s == 0 ? 0 : tt_gateway(prm, s, 0); }

/* Slice i of k of P_s. */
static cs_units slice(const cs_sched_params *prm, int64_t s, int64_t i, int64_t k)
{
  int64_t S = tt_ranks_per_supernode(prm), lo = i * S / k, hi = (i + 1) * S / k;
  return cs_units_range(s * S + lo, hi - lo);
}

/* Steps 5-6 when every node holds a partial sum: slice j = node j's units. */
static void clique_all_nodes(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  int64_t s = w->sn, me = w->node, c = collector_of(prm, s), cpn = prm->tt->cpn;
  int32_t tag0 = tt_tag(prm, STEP_PART_CLIQUE, 0, me);
  tt_ops_other_nodes(out, prm, CS_OP_SEND, s, me, tag0, tt_node_units(prm, s, 0), cpn);
  tt_ops_other_nodes(out, prm, CS_OP_RECV_REDUCE, s, me, tag0, tt_node_units(prm, s, me), 0);
  if (me != c)
    cs_ops_send(out, tt_leader(prm, s, c), tt_tag(prm, STEP_TO_COLLECTOR, 0, me + c), tt_node_units(prm, s, me));
  else
    tt_ops_other_nodes(out, prm, CS_OP_RECV, s, c, tt_tag(prm, STEP_TO_COLLECTOR, 0, c), tt_node_units(prm, s, 0),
                       cpn);
}

/* Steps 5-6 among the k holders h[0..k) (ascending node indices). */
static void clique_holders(const cs_sched_params *prm, const tt_where *w, const int64_t *h, int64_t k,
                           cs_oplist *out)
{
  int64_t s = w->sn, me = w->node, c = collector_of(prm, s), a = -1;
  for (int64_t i = 0; i < k; i++)
    if (h[i] == me)
      a = i;
  if (a >= 0 && k > 1) {
    for (int64_t b = 0; b < k; b++)
      if (b != a)
        cs_ops_send(out, tt_leader(prm, s, h[b]), tt_tag(prm, STEP_PART_CLIQUE, 0, me + h[b]), slice(prm, s, b, k));
    for (int64_t b = 0; b < k; b++)
      if (b != a)
        cs_ops_recv_reduce(out, tt_leader(prm, s, h[b]), tt_tag(prm, STEP_PART_CLIQUE, 0, h[b] + me),
                           slice(prm, s, a, k));
  }
  if (a >= 0 && me != c)
    cs_ops_send(out, tt_leader(prm, s, c), tt_tag(prm, STEP_TO_COLLECTOR, 0, me + c), slice(prm, s, a, k));
  if (me == c)
    for (int64_t b = 0; b < k; b++)
      if (h[b] != c)
        cs_ops_recv(out, tt_leader(prm, s, h[b]), tt_tag(prm, STEP_TO_COLLECTOR, 0, h[b] + c), slice(prm, s, b, k));
}

/* Steps 5-6. */
static void combine_own_part(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  int64_t nps = prm->tt->nps, k = 0;
  bool *holder = g_new(bool, nps);
  int64_t *h = g_new(int64_t, nps);
  tt_part_holders(prm, w->sn, holder);
  for (int64_t n = 0; n < nps; n++)
    if (holder[n])
      h[k++] = n;
  if (k == nps && nps > 1)
    clique_all_nodes(prm, w, out);
  else
    clique_holders(prm, w, h, k, out);
  g_free(holder);
  g_free(h);
}

/* Steps 7 (receiving side) and 8 for a node of supernode 0. */
static void supernode0_collects(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  tt_landed_to_root(out, prm, w, STEP_TO_SUPERNODE0, STEP_TO_ROOT, tt_ranks_per_supernode(prm));
}

static void leader_ops(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  tt_reduce_exchange(out, prm, w, STEP_NODE_LEVEL);
  combine_own_part(prm, w, out);
  if (w->sn == 0)
    supernode0_collects(prm, w, out);
  else if (w->node == collector_of(prm, w->sn))
    cs_ops_send(out, tt_leader(prm, 0, tt_landing(prm, w->sn, 0)), tt_tag(prm, STEP_TO_SUPERNODE0, 0, 0),
                tt_supernode_units(prm, w->sn));
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  tt_where w = tt_locate(prm, rank);
  tt_node_reduce(out, prm, rank, STEP_IN_NODE);
  if (w.core == 0)
    leader_ops(prm, &w, out);
}

/* ---- cost ---- */

/* Steps 5-6 in supernode 0: h holders combine slices of S/h, then send them
 * to the collector (one holder: it sends P_0 whole unless it collects). */
static double cost_combine_part(const cs_sched_params *prm, const cs_cost_params *c)
{
  int64_t h = tt_count_holders(prm, 0);
  double S = tt_supernode_bytes(prm), slice = S / (double)h;
  if (h == 1) {
    bool *holder = g_new(bool, prm->tt->nps);
    tt_part_holders(prm, 0, holder);
    bool collects = holder[collector_of(prm, 0)];
    g_free(holder);
    return collects ? 0 : tt_cost_out(c, CS_LVL_NODE, 1, S);
  }
  cs_cost_step s = cs_cost_fan(CS_LVL_NODE, (double)(h - 1), slice);
  s.recvs = (double)(h - 1);
  s.combined = (double)(h - 1) * slice;
  return cs_cost_step_time(c, &s) + tt_cost_in(c, CS_LVL_NODE, h - 1, slice);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double t = tt_cost_node_reduce(prm, c) + tt_cost_reduce_exchange(prm, c) + cost_combine_part(prm, c);
  return prm->tt->sn > 1 ? t + tt_cost_parts_to_root(prm, c) : t; /* steps 7-8 */
}

const cs_coll_algo cs_algo_twotier_reduce = {
    "two-tier", CS_COLL_REDUCE,
    "Sec. 5.4: owner-based reductions at core, node and supernode level, parts collected at the root", plan, ops, true,
    cost, TT_REDUCE_EXCHANGE_COST " + [h > 1: xchg_1(h-1, S/h) + (h-1)*(S/h)*g + fanin_1(h-1, S/h)] + [sn > 1: "
          "fanin_g(kL, S) + fanin_1(nps-1, kl*S) with the root's port at the parts landed off its node], "
          TT_REDUCE_EXCHANGE_WHERE ", h: nodes holding a partial sum of P_0, kL (kl): most L2 links landing on a node "
          "of supernode 0 (but the root's)"};
