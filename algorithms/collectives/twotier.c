/* Shared helpers of the two-tier SDTA algorithms (see twotier.h). */
#include "algorithms/collectives/twotier.h"

#include <math.h>
#include <string.h>

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ---- shape ---- */

tt_where tt_locate(const cs_sched_params *prm, int64_t rank)
{
  const cs_two_tier *net = prm->tt;
  int64_t g = rank / net->cpn;
  return (tt_where){.sn = g / net->nps, .node = g % net->nps, .core = rank % net->cpn, .leader = g * net->cpn};
}

int64_t tt_leader(const cs_sched_params *prm, int64_t s, int64_t n)
{
  return (s * prm->tt->nps + n) * prm->tt->cpn;
}

int64_t tt_gateway(const cs_sched_params *prm, int64_t from, int64_t to)
{
  int64_t n = cs_tt_gateway(prm->tt, from, to);
  g_assert(n >= 0 && n < prm->tt->nps);
  return n;
}

int64_t tt_landing(const cs_sched_params *prm, int64_t from, int64_t to)
{
  int64_t n = cs_tt_landing(prm->tt, from, to);
  g_assert(n >= 0 && n < prm->tt->nps);
  return n;
}

int64_t tt_ranks_per_supernode(const cs_sched_params *prm) { return prm->tt->nps * prm->tt->cpn; }

int64_t tt_units_per_rank(const cs_sched_params *prm) { return prm->nunits / prm->p; }

/* ---- tags ---- */

static int64_t tag_pair_span(const cs_sched_params *prm) { return 2 * max64(prm->tt->nps, prm->tt->cpn); }

static int64_t tag_seg_span(const cs_sched_params *prm) { return max64(prm->tt->sn, prm->tt->nps) + 1; }

int32_t tt_tag(const cs_sched_params *prm, int step, int64_t seg, int64_t pair)
{
  int64_t pairs = tag_pair_span(prm), segs = tag_seg_span(prm);
  g_assert(step >= 0 && step < TT_STEPS && seg >= 0 && seg < segs && pair >= 0 && pair < pairs);
  return (int32_t)(((int64_t)step * segs + seg) * pairs + pair);
}

int64_t tt_tag_span(const cs_sched_params *prm) { return TT_STEPS * tag_seg_span(prm) * tag_pair_span(prm); }

bool tt_check_tags(const cs_sched_params *prm, const char *algo, GError **err)
{
  if ((double)TT_STEPS * (double)tag_seg_span(prm) * (double)tag_pair_span(prm) <= (double)INT32_MAX)
    return true;
  g_set_error(err, CS_SCHED_ERROR, 1, "%s: shape too large for 32-bit tags (sn %lld, nps %lld, cpn %lld)", algo,
              (long long)prm->tt->sn, (long long)prm->tt->nps, (long long)prm->tt->cpn);
  return false;
}

/* ---- units ---- */

cs_units tt_supernode_units(const cs_sched_params *prm, int64_t s)
{
  int64_t per = tt_ranks_per_supernode(prm) * tt_units_per_rank(prm);
  return cs_units_range(s * per, per);
}

cs_units tt_node_units(const cs_sched_params *prm, int64_t s, int64_t n)
{
  int64_t per = prm->tt->cpn * tt_units_per_rank(prm);
  return cs_units_range((s * prm->tt->nps + n) * per, per);
}

/* ---- arithmetic progressions ---- */

size_t tt_progressions(const int64_t *x, size_t n, tt_prog *out)
{
  size_t count = 0;
  for (size_t i = 0; i < n;) {
    tt_prog g = {x[i], 0, 1};
    if (i + 1 < n) {
      g.step = x[i + 1] - x[i];
      while (i + g.count < n && x[i + g.count] - x[i + g.count - 1] == g.step)
        g.count++;
    }
    out[count++] = g;
    i += (size_t)g.count;
  }
  return count;
}

cs_units tt_prog_units(tt_prog g, int64_t scale)
{
  if (g.count == 1)
    return cs_units_range(g.first * scale, scale);
  return cs_units_strided(g.first * scale, scale, g.step * scale, g.count);
}

/* ---- buckets ---- */

void tt_buckets_build(tt_buckets *b, int64_t nb, size_t n, const int64_t *key, const int64_t *item)
{
  b->nb = nb;
  b->start = g_new0(int64_t, nb + 1);
  b->item = g_new(int64_t, n > 0 ? n : 1);
  for (size_t i = 0; i < n; i++)
    b->start[key[i] + 1]++;
  for (int64_t k = 0; k < nb; k++)
    b->start[k + 1] += b->start[k];
  int64_t *fill = g_memdup2(b->start, sizeof(int64_t) * (size_t)nb);
  for (size_t i = 0; i < n; i++)
    b->item[fill[key[i]]++] = item[i];
  g_free(fill);
}

void tt_buckets_free(tt_buckets *b)
{
  g_free(b->start);
  g_free(b->item);
  memset(b, 0, sizeof *b);
}

int64_t tt_bucket_size(const tt_buckets *b, int64_t k) { return b->start[k + 1] - b->start[k]; }

const int64_t *tt_bucket(const tt_buckets *b, int64_t k) { return b->item + b->start[k]; }

/* Supernodes u != s in ascending order, keyed by node(s, u) or node(u, s). */
static void by_link_end(const cs_sched_params *prm, int64_t s, bool gateway_side, tt_buckets *b)
{
  int64_t sn = prm->tt->sn;
  size_t n = 0;
  int64_t *key = g_new(int64_t, sn), *item = g_new(int64_t, sn);
  for (int64_t u = 0; u < sn; u++) {
    if (u == s)
      continue;
    key[n] = gateway_side ? tt_gateway(prm, s, u) : tt_landing(prm, u, s);
    item[n++] = u;
  }
  tt_buckets_build(b, prm->tt->nps, n, key, item);
  g_free(key);
  g_free(item);
}

void tt_by_gateway(const cs_sched_params *prm, int64_t s, tt_buckets *b) { by_link_end(prm, s, true, b); }

void tt_by_landing(const cs_sched_params *prm, int64_t u, tt_buckets *b) { by_link_end(prm, u, false, b); }

void tt_ops_one(cs_oplist *out, cs_op_kind kind, int64_t peer, int32_t tag, cs_units u)
{
  switch (kind) {
  case CS_OP_SEND:
    cs_ops_send(out, peer, tag, u);
    break;
  case CS_OP_RECV:
    cs_ops_recv(out, peer, tag, u);
    break;
  case CS_OP_RECV_REDUCE:
    cs_ops_recv_reduce(out, peer, tag, u);
    break;
  default:
    g_assert_not_reached();
  }
}

void tt_ops_bucket(cs_oplist *out, const cs_sched_params *prm, cs_op_kind kind, int64_t peer, const tt_buckets *b,
                   int64_t k, int64_t scale, int step, int64_t pair)
{
  size_t n = (size_t)tt_bucket_size(b, k);
  tt_prog *g = g_new(tt_prog, n > 0 ? n : 1);
  size_t ng = tt_progressions(tt_bucket(b, k), n, g);
  for (size_t i = 0; i < ng; i++)
    tt_ops_one(out, kind, peer, tt_tag(prm, step, (int64_t)i, pair), tt_prog_units(g[i], scale));
  g_free(g);
}

/* ---- loops over the members of a group ---- */

void tt_ops_range(cs_oplist *out, const cs_sched_params *prm, cs_op_kind kind, int64_t rank0, int64_t rank_step,
                  int64_t lo, int64_t hi, int32_t tag0, cs_units u0, int64_t unit_step)
{
  if (hi <= lo)
    return;
  cs_units u = u0;
  u.first = cs_mod(u0.first + lo * unit_step, prm->nunits);
  cs_ops_loop(out, hi - lo, 1);
  tt_ops_one(out, kind, rank0 + lo * rank_step, (int32_t)(tag0 + lo), u);
  cs_ops_step(out, rank_step, unit_step);
}

void tt_ops_others(cs_oplist *out, const cs_sched_params *prm, cs_op_kind kind, int64_t rank0, int64_t rank_step,
                   int64_t count, int64_t self, int32_t tag0, cs_units u0, int64_t unit_step)
{
  tt_ops_range(out, prm, kind, rank0, rank_step, self + 1, count, tag0, u0, unit_step);
  tt_ops_range(out, prm, kind, rank0, rank_step, 0, self, tag0, u0, unit_step);
}

void tt_ops_other_nodes(cs_oplist *out, const cs_sched_params *prm, cs_op_kind kind, int64_t s, int64_t self,
                        int32_t tag0, cs_units u0, int64_t unit_step)
{
  tt_ops_others(out, prm, kind, tt_leader(prm, s, 0), prm->tt->cpn, prm->tt->nps, self, tag0, u0, unit_step);
}

/* ---- inside a node ---- */

/* Core 0 sends each other core the units u0 shifted by core*unit_step (and
 * each other core receives its share). */
static void node_spread(cs_oplist *out, const cs_sched_params *prm, int64_t rank, int step, cs_units u0,
                        int64_t unit_step)
{
  tt_where w = tt_locate(prm, rank);
  if (w.core == 0) {
    tt_ops_others(out, prm, CS_OP_SEND, w.leader, 1, prm->tt->cpn, 0, tt_tag(prm, step, 0, 0), u0, unit_step);
    return;
  }
  cs_units mine = u0;
  mine.first += w.core * unit_step;
  cs_ops_recv(out, w.leader, tt_tag(prm, step, 0, w.core), mine);
}

void tt_node_scatter(cs_oplist *out, const cs_sched_params *prm, int64_t rank, int step)
{
  int64_t leader = tt_locate(prm, rank).leader;
  node_spread(out, prm, rank, step, cs_units_block(prm, leader), tt_units_per_rank(prm));
}

void tt_node_bcast(cs_oplist *out, const cs_sched_params *prm, int64_t rank, int step)
{
  node_spread(out, prm, rank, step, cs_units_all(prm), 0);
}

void tt_node_gather(cs_oplist *out, const cs_sched_params *prm, int64_t rank, int step)
{
  tt_where w = tt_locate(prm, rank);
  if (w.core != 0) {
    cs_ops_send(out, w.leader, tt_tag(prm, step, 0, w.core), cs_units_block(prm, rank));
    return;
  }
  tt_ops_others(out, prm, CS_OP_RECV, w.leader, 1, prm->tt->cpn, 0, tt_tag(prm, step, 0, 0),
                cs_units_block(prm, w.leader), tt_units_per_rank(prm));
}

void tt_node_reduce(cs_oplist *out, const cs_sched_params *prm, int64_t rank, int step)
{
  tt_where w = tt_locate(prm, rank);
  int64_t cpn = prm->tt->cpn, q = prm->nunits / cpn;
  g_assert(prm->nunits % cpn == 0);
  int32_t tag0 = tt_tag(prm, step, 0, w.core);
  /* every core sends each owner its part; owners combine */
  tt_ops_others(out, prm, CS_OP_SEND, w.leader, 1, cpn, w.core, tag0, cs_units_range(0, q), q);
  tt_ops_others(out, prm, CS_OP_RECV_REDUCE, w.leader, 1, cpn, w.core, tag0, cs_units_range(w.core * q, q), 0);
  /* owners deliver their finished part to core 0 */
  if (w.core != 0)
    cs_ops_send(out, w.leader, tt_tag(prm, step + 1, 0, w.core), cs_units_range(w.core * q, q));
  else
    tt_ops_others(out, prm, CS_OP_RECV, w.leader, 1, cpn, 0, tt_tag(prm, step + 1, 0, 0), cs_units_range(0, q), q);
}

/* ---- supernode stage of the reductions ---- */

int64_t tt_own_part_owner(const tt_buckets *by_gateway)
{
  int64_t best = 0;
  for (int64_t n = 1; n < by_gateway->nb; n++)
    if (tt_bucket_size(by_gateway, n) < tt_bucket_size(by_gateway, best))
      best = n;
  return best;
}

/* Parts owned by node n of supernode s, ascending, into buf (room for sn);
 * returns the count. */
static size_t owned_parts(const tt_buckets *g, int64_t s, int64_t own, int64_t n, int64_t *buf)
{
  size_t k = 0, size = (size_t)tt_bucket_size(g, n);
  const int64_t *parts = tt_bucket(g, n);
  bool self_pending = n == own;
  for (size_t i = 0; i < size; i++) {
    if (self_pending && s < parts[i]) {
      buf[k++] = s;
      self_pending = false;
    }
    buf[k++] = parts[i];
  }
  if (self_pending)
    buf[k++] = s;
  return k;
}

/* Node level: every node of s sends each owner the parts it owns; the owner
 * combines what it receives from every other node. */
static void exchange_parts_in_supernode(cs_oplist *out, const cs_sched_params *prm, const tt_where *w,
                                        const tt_buckets *g, int64_t own, int step)
{
  int64_t nps = prm->tt->nps, scale = tt_ranks_per_supernode(prm) * tt_units_per_rank(prm);
  int64_t *buf = g_new(int64_t, prm->tt->sn);
  tt_prog *prog = g_new(tt_prog, prm->tt->sn);
  for (int64_t j = 0; j < nps; j++) {
    if (j == w->node)
      continue;
    size_t ng = tt_progressions(buf, owned_parts(g, w->sn, own, j, buf), prog);
    for (size_t i = 0; i < ng; i++)
      cs_ops_send(out, tt_leader(prm, w->sn, j), tt_tag(prm, step, (int64_t)i, w->node + j),
                  tt_prog_units(prog[i], scale));
  }
  size_t ng = tt_progressions(buf, owned_parts(g, w->sn, own, w->node, buf), prog);
  for (size_t i = 0; i < ng; i++)
    tt_ops_other_nodes(out, prm, CS_OP_RECV_REDUCE, w->sn, w->node, tt_tag(prm, step, (int64_t)i, w->node),
                       tt_prog_units(prog[i], scale), 0);
  g_free(buf);
  g_free(prog);
}

/* Supernode level: each owner sends P_u over its L2 link; the landing node
 * starts or extends its partial sum of its own supernode's part. */
static void exchange_parts_between_supernodes(cs_oplist *out, const cs_sched_params *prm, const tt_where *w,
                                              const tt_buckets *g, int64_t own, int step)
{
  int64_t s = w->sn, n = w->node;
  int32_t tag = tt_tag(prm, step, 0, 0);
  for (int64_t i = 0; i < tt_bucket_size(g, n); i++) {
    int64_t u = tt_bucket(g, n)[i];
    cs_ops_send(out, tt_leader(prm, u, tt_landing(prm, s, u)), tag, tt_supernode_units(prm, u));
  }
  tt_buckets l;
  tt_by_landing(prm, s, &l);
  bool live = n == own; /* the owner's partial sum of P_s is live; others gave theirs away */
  for (int64_t i = 0; i < tt_bucket_size(&l, n); i++) {
    int64_t t = tt_bucket(&l, n)[i];
    tt_ops_one(out, live ? CS_OP_RECV_REDUCE : CS_OP_RECV, tt_leader(prm, t, tt_gateway(prm, t, s)), tag,
               tt_supernode_units(prm, s));
    live = true;
  }
  tt_buckets_free(&l);
}

void tt_reduce_exchange(cs_oplist *out, const cs_sched_params *prm, const tt_where *w, int step)
{
  tt_buckets g;
  tt_by_gateway(prm, w->sn, &g);
  int64_t own = tt_own_part_owner(&g);
  exchange_parts_in_supernode(out, prm, w, &g, own, step);
  exchange_parts_between_supernodes(out, prm, w, &g, own, step + 1);
  tt_buckets_free(&g);
}

void tt_part_holders(const cs_sched_params *prm, int64_t s, bool *holder)
{
  tt_buckets g;
  tt_by_gateway(prm, s, &g);
  memset(holder, 0, sizeof(bool) * (size_t)prm->tt->nps);
  holder[tt_own_part_owner(&g)] = true;
  for (int64_t t = 0; t < prm->tt->sn; t++)
    if (t != s)
      holder[tt_landing(prm, t, s)] = true;
  tt_buckets_free(&g);
}

void tt_landed_to_root(cs_oplist *out, const cs_sched_params *prm, const tt_where *w, int step_over_l2,
                       int step_to_root, int64_t scale)
{
  tt_buckets a;
  tt_by_landing(prm, 0, &a);
  for (int64_t i = 0; i < tt_bucket_size(&a, w->node); i++) {
    int64_t t = tt_bucket(&a, w->node)[i];
    cs_ops_recv(out, tt_leader(prm, t, tt_gateway(prm, t, 0)), tt_tag(prm, step_over_l2, 0, 0),
                tt_supernode_units(prm, t));
  }
  if (w->node != 0)
    tt_ops_bucket(out, prm, CS_OP_SEND, 0, &a, w->node, scale, step_to_root, 0);
  else
    for (int64_t n = 1; n < prm->tt->nps; n++)
      tt_ops_bucket(out, prm, CS_OP_RECV, tt_leader(prm, 0, n), &a, n, scale, step_to_root, 0);
  tt_buckets_free(&a);
}

void tt_direct_with_root(cs_oplist *out, const cs_sched_params *prm, int64_t rank, bool root_sends)
{
  if (rank != 0) {
    (root_sends ? cs_ops_recv : cs_ops_send)(out, 0, (int32_t)(rank - 1), cs_units_block(prm, rank));
    return;
  }
  if (prm->p < 2)
    return;
  cs_ops_loop(out, prm->p - 1, 1);
  (root_sends ? cs_ops_send : cs_ops_recv)(out, 1, 0, cs_units_block(prm, 1));
  cs_ops_step(out, 1, tt_units_per_rank(prm));
}

int64_t tt_count_holders(const cs_sched_params *prm, int64_t s)
{
  bool *holder = g_new(bool, prm->tt->nps);
  tt_part_holders(prm, s, holder);
  int64_t k = 0;
  for (int64_t n = 0; n < prm->tt->nps; n++)
    k += holder[n];
  g_free(holder);
  return k;
}

/* ---- costs ---- */

double tt_block_bytes(const cs_sched_params *prm) { return (double)prm->bytes / (double)prm->p; }

double tt_supernode_bytes(const cs_sched_params *prm)
{
  return tt_block_bytes(prm) * (double)tt_ranks_per_supernode(prm);
}

double tt_cost_exchange(const cs_cost_params *c, cs_cost_level level, int64_t out, int64_t in, double bytes)
{
  if (out <= 0 && in <= 0)
    return 0;
  cs_cost_step s = cs_cost_fan(level, (double)max64(out, in), bytes);
  s.sends = (double)max64(out, 1);
  s.recvs = (double)max64(in, 1);
  return cs_cost_step_time(c, &s);
}

double tt_cost_out(const cs_cost_params *c, cs_cost_level level, int64_t k, double bytes)
{
  return k > 0 ? tt_cost_exchange(c, level, k, 1, bytes) : 0;
}

double tt_cost_in(const cs_cost_params *c, cs_cost_level level, int64_t k, double bytes)
{
  return k > 0 ? tt_cost_exchange(c, level, 1, k, bytes) : 0;
}

/* The most L2 links at one node of [from, to) of supernode s: leaving it
 * (gateway side) or landing on it. */
static int64_t most_links(const cs_sched_params *prm, int64_t s, bool gateway_side, int64_t from, int64_t to)
{
  tt_buckets b;
  by_link_end(prm, s, gateway_side, &b);
  int64_t best = 0;
  for (int64_t k = from; k < to; k++)
    best = max64(best, tt_bucket_size(&b, k));
  tt_buckets_free(&b);
  return best;
}

int64_t tt_most_gateways(const cs_sched_params *prm, int64_t s, int64_t from)
{
  return most_links(prm, s, true, from, prm->tt->nps);
}

int64_t tt_most_landings(const cs_sched_params *prm, int64_t s, int64_t from)
{
  return most_links(prm, s, false, from, prm->tt->nps);
}

int64_t tt_gateways_at(const cs_sched_params *prm, int64_t s, int64_t n) { return most_links(prm, s, true, n, n + 1); }

int64_t tt_landings_at(const cs_sched_params *prm, int64_t s, int64_t n) { return most_links(prm, s, false, n, n + 1); }

double tt_cost_node_spread(const cs_sched_params *prm, const cs_cost_params *c, double m)
{
  return tt_cost_out(c, CS_LVL_CORE, prm->tt->cpn - 1, m);
}

double tt_cost_node_collect(const cs_sched_params *prm, const cs_cost_params *c, double m)
{
  return tt_cost_in(c, CS_LVL_CORE, prm->tt->cpn - 1, m);
}

/* Gather's and reduce's last steps: every supernode's part over its L2 link
 * to supernode 0 (the gateways' landings there receive at once), then from
 * the landing nodes to the root at once, through the root's port. */
double tt_cost_parts_to_root(const cs_sched_params *prm, const cs_cost_params *c)
{
  int64_t nps = prm->tt->nps, landed = tt_most_landings(prm, 0, 1);
  double S = tt_supernode_bytes(prm), t = tt_cost_in(c, CS_LVL_GATEWAY, tt_most_landings(prm, 0, 0), S);
  if (landed == 0)
    return t;
  cs_cost_step s = cs_cost_fan(CS_LVL_NODE, (double)(nps - 1), (double)landed * S);
  s.port_bytes = (double)(prm->tt->sn - 1 - tt_landings_at(prm, 0, 0)) * S;
  s.recvs = s.sends;
  s.sends = 1;
  return t + cs_cost_step_time(c, &s);
}

double tt_cost_node_reduce(const cs_sched_params *prm, const cs_cost_params *c)
{
  int64_t others = prm->tt->cpn - 1;
  if (others == 0)
    return 0;
  double q = (double)prm->bytes / (double)prm->tt->cpn;
  cs_cost_step s = cs_cost_fan(CS_LVL_CORE, (double)others, q);
  s.recvs = (double)others;
  s.combined = (double)others * q;
  return cs_cost_step_time(c, &s) + tt_cost_node_collect(prm, c, q);
}

/* Node level: every node sends each owner (nps-1 of them) its parts and
 * combines the parts it owns from every other node. */
static double cost_parts_in_supernode(const cs_sched_params *prm, const cs_cost_params *c, const tt_buckets *g)
{
  int64_t nps = prm->tt->nps, own = tt_own_part_owner(g), most = 0, least = prm->tt->sn, owners = 0;
  if (nps < 2)
    return 0;
  for (int64_t n = 0; n < nps; n++) {
    int64_t parts = tt_bucket_size(g, n) + (n == own);
    most = max64(most, parts);
    least = parts < least ? parts : least;
    owners += parts > 0;
  }
  double S = tt_supernode_bytes(prm), in = (double)((nps - 1) * most) * S;
  cs_cost_step s = cs_cost_fan(CS_LVL_NODE, (double)max64(owners - 1, 1), (double)most * S);
  s.port_bytes = fmax(in, (double)(prm->tt->sn - least) * S);
  s.recvs = (double)(nps - 1);
  s.combined = in;
  return cs_cost_step_time(c, &s);
}

double tt_cost_reduce_exchange(const cs_sched_params *prm, const cs_cost_params *c)
{
  tt_buckets g;
  tt_by_gateway(prm, 0, &g);
  double t = cost_parts_in_supernode(prm, c, &g);
  tt_buckets_free(&g);
  if (prm->tt->sn < 2)
    return t;
  int64_t out = tt_most_gateways(prm, 0, 0), in = tt_most_landings(prm, 0, 0);
  double S = tt_supernode_bytes(prm);
  cs_cost_step s = cs_cost_fan(CS_LVL_GATEWAY, (double)max64(out, in), S);
  s.sends = (double)out;
  s.recvs = (double)in;
  s.combined = (double)in * S;
  return t + cs_cost_step_time(c, &s);
}

double tt_cost_direct(const cs_sched_params *prm, const cs_cost_params *c, bool root_sends)
{
  int64_t p = prm->p, cpn = prm->tt->cpn;
  if (p < 2)
    return 0;
  double b = tt_block_bytes(prm), S = tt_supernode_bytes(prm);
  cs_cost_level level = prm->tt->sn > 1 ? CS_LVL_SUPERNODE : prm->tt->nps > 1 ? CS_LVL_NODE : CS_LVL_CORE;
  cs_cost_step s = cs_cost_fan(level, (double)(p - 1), b);
  if (level != CS_LVL_CORE) {
    s.pair_bytes = (double)cpn * b + (double)tt_most_gateways(prm, 0, 1) * S;
    s.port_bytes = (double)(p - cpn) * b;
    s.l2_bytes = level == CS_LVL_SUPERNODE ? S : 0;
  }
  if (!root_sends) {
    s.recvs = s.sends;
    s.sends = 1;
  }
  return cs_cost_step_time(c, &s);
}
