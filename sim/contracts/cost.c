/* The cost contract's shared arithmetic (seed 001, Section 3; see cost.h
 * for the step formula and the choices left open). */
#include "sim/contracts/cost.h"
#include "sim/contracts/schedule.h"

#include <glib.h>
#include <stdlib.h>

static double max2(double a, double b) { return a > b ? a : b; }

double cs_cost_step_time(const cs_cost_params *c, const cs_cost_step *s)
{
  double wire = max2(s->pair_bytes * c->beta[s->level], max2(s->port_bytes * c->beta_port, s->l2_bytes * c->beta_l2));
  double recvs = s->recvs > 1 ? s->recvs : 1, each = c->o_recv * (s->recvs > 0) + s->combined / recvs * c->gamma;
  double flight = c->alpha[s->level] + wire, sent = s->sends * c->o_send;
  double first_in = (s->sends > 0 ? c->o_send : 0) + flight; /* concurrent messages end together */
  return max2(sent + flight + each, max2(sent, first_in) + recvs * each);
}

cs_cost_level cs_cost_level_of(const cs_sched_params *prm, int64_t a, int64_t b)
{
  int64_t na = cs_rank_node(prm, a), nb = cs_rank_node(prm, b);
  if (na == nb)
    return CS_LVL_CORE;
  return na / prm->tt->nps == nb / prm->tt->nps ? CS_LVL_NODE : CS_LVL_SUPERNODE;
}

cs_cost_step cs_cost_at(cs_cost_level level, double bytes)
{
  cs_cost_step s = {.level = level, .pair_bytes = bytes, .sends = 1, .recvs = 1};
  if (level != CS_LVL_CORE)
    s.port_bytes = bytes;
  if (level == CS_LVL_SUPERNODE || level == CS_LVL_GATEWAY)
    s.l2_bytes = bytes;
  return s;
}

cs_cost_step cs_cost_message(const cs_sched_params *prm, int64_t a, int64_t b, double bytes)
{
  return cs_cost_at(cs_cost_level_of(prm, a, b), bytes);
}

cs_cost_step cs_cost_fan(cs_cost_level level, double k, double bytes)
{
  cs_cost_step s = cs_cost_at(level, bytes);
  s.sends = k > 1 ? k : 1;
  if (level != CS_LVL_CORE)
    s.port_bytes = s.sends * bytes;
  return s;
}

static int cmp_i64(const void *x, const void *y)
{
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

/* Longest run of equal values in v[0..n) (sorted here). */
static int64_t longest_run(int64_t *v, size_t n)
{
  qsort(v, n, sizeof *v, cmp_i64);
  int64_t best = 0, run = 0;
  for (size_t i = 0; i < n; i++) {
    run = i > 0 && v[i] == v[i - 1] ? run + 1 : 1;
    if (run > best)
      best = run;
  }
  return best;
}

/* The senders whose loads are counted: every rank, or those of supernode 0. */
static int64_t *senders(const cs_sched_params *prm, bool supernode0_only, size_t *n)
{
  int64_t want = supernode0_only ? prm->tt->nps * prm->tt->cpn : prm->p;
  int64_t *r = g_new(int64_t, want > 0 ? want : 1);
  size_t k = 0;
  for (int64_t x = 0; x < prm->p && (int64_t)k < want; x++)
    if (!supernode0_only || cs_rank_node(prm, x) < prm->tt->nps)
      r[k++] = x;
  *n = k;
  return r;
}

static cs_cost_step pattern(const cs_sched_params *prm, cs_cost_partner_fn partner, int64_t arg, double bytes,
                            bool supernode0_only)
{
  size_t n, npair = 0, nout = 0, nl2 = 0;
  int64_t *src = senders(prm, supernode0_only, &n), nodes = cs_tt_nodes(prm->tt), nps = prm->tt->nps;
  int64_t *pair = g_new(int64_t, n + 1), *out = g_new(int64_t, n + 1), *l2 = g_new(int64_t, n + 1);
  cs_cost_level level = CS_LVL_CORE;
  bool any = false;
  for (size_t i = 0; i < n; i++) {
    int64_t q = partner(prm, src[i], arg);
    if (q < 0 || q == src[i])
      continue;
    any = true;
    int64_t a = cs_rank_node(prm, src[i]), b = cs_rank_node(prm, q);
    cs_cost_level l = cs_cost_level_of(prm, src[i], q);
    level = l > level ? l : level;
    if (l == CS_LVL_CORE)
      continue;
    pair[npair++] = a * nodes + b;
    out[nout++] = a;
    if (l == CS_LVL_SUPERNODE)
      l2[nl2++] = (a / nps) * (nodes / nps) + b / nps;
  }
  cs_cost_step s = {.level = level, .pair_bytes = any ? bytes : 0, .sends = any, .recvs = any};
  if (npair)
    s.pair_bytes = (double)longest_run(pair, npair) * bytes;
  s.port_bytes = (double)longest_run(out, nout) * bytes;
  s.l2_bytes = (double)longest_run(l2, nl2) * bytes;
  g_free(src);
  g_free(pair);
  g_free(out);
  g_free(l2);
  return s;
}

cs_cost_step cs_cost_pattern(const cs_sched_params *prm, cs_cost_partner_fn partner, int64_t arg, double bytes)
{
  return pattern(prm, partner, arg, bytes, false);
}

cs_cost_step cs_cost_uniform_pattern(const cs_sched_params *prm, cs_cost_partner_fn partner, int64_t arg,
                                     double bytes)
{
  return pattern(prm, partner, arg, bytes, true);
}

const char *const cs_cost_legend[] = {
    "o = o_send + o_recv: software overhead per message sent and received (--o-send, --o-recv; 0 by default)",
    "a0 a1 a2 ag: latency of a message between two cores of a node, two nodes of a supernode, two supernodes, a "
    "gateway node and the landing node of its L2 link (the longest such route's link latencies x the network "
    "model's latency factor, LV08: 13.01)",
    "B0 B1 B2 Bg: seconds per byte on such a route (its slowest link: 1 / (bandwidth x the model's bandwidth "
    "factor, LV08: 0.97))",
    "Bp: seconds per byte of a node's port, the link on every route out of (into) a node (Dragonfly's terminal "
    "link), shared by the messages it sends (receives) at once; 0 without one (PERCS)",
    "BL: seconds per byte of the link on every route between two supernodes (their L2 link), shared by all their "
    "messages at once",
    "g: seconds per byte combined by a reducing receive (--gamma), exactly what the timed run charges",
    "p ranks = sn supernodes x nps nodes x cpn cores; n bytes in all (bcast, reduce, allreduce: the buffer; "
    "alltoall: p^2 blocks, one per pair of ranks; the others: p blocks), b = n/p (alltoall: n/p^2, the bytes per "
    "pair); L = ceil(log2 p)",
    "a(x), B(x): a and B at the level of ranks x (or x apart); msg(x, m) = o + a(x) + m*B(x): one message of m bytes",
    "fan_X(k, m) = k*o_send + a_X + max(m*B_X, k*m*Bp, m*BL) + o_recv: a node sends k messages of m bytes at once "
    "to nodes at level X (0, 1, 2, g); fanin_X(k, m): receives them (o_send + ... + k*o_recv); xchg_X(k, m): "
    "sends k and receives k",
    "shift(d, m), xor(d, m) = o + a + max(kn*m*B, kp*m*Bp, kl*m*BL): every rank r sends m bytes to r+d mod p (r XOR "
    "d) at once; a, B of the farthest pair; kn, kp, kl: the most of those messages between two nodes, out of one "
    "node, between two supernodes",
    "steps add up, one after another; within a step the receives may queue behind the wire, and o_send, o_recv "
    "overlap the flight time as sim/contracts/cost.h says",
    NULL};
