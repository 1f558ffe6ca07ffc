/* Helpers shared by the topology-oblivious schedules; see oblivious.h. */
#include "algorithms/collectives/oblivious.h"

#include <math.h>

static int64_t rel_rank(const cs_sched_params *prm, int64_t rank) { return cs_tree_rel_rank(rank, prm->root, prm->p); }

static int64_t abs_rank(const cs_sched_params *prm, int64_t rel) { return cs_tree_abs_rank(rel, prm->root, prm->p); }

/* The blocks of relative ranks [rel, rel + count). */
static cs_units rel_blocks(const cs_sched_params *prm, int64_t rel, int64_t count)
{
  return cs_units_blocks(prm, abs_rank(prm, rel), count);
}

void cs_obl_binomial_scatter(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, rel = rel_rank(prm, rank);
  int64_t parent_mask = cs_binomial_child_limit(rel, p);
  if (rel != 0)
    cs_ops_recv(out, abs_rank(prm, cs_binomial_parent(rel)), tag + cs_log2_pow2(parent_mask),
                rel_blocks(prm, rel, cs_binomial_subtree_size(rel, p)));
  for (int64_t mask = parent_mask >> 1; mask > 0; mask >>= 1) {
    int64_t child = rel + mask;
    if (child < p)
      cs_ops_send(out, abs_rank(prm, child), tag + cs_log2_pow2(mask),
                  rel_blocks(prm, child, cs_binomial_subtree_size(child, p)));
  }
}

void cs_obl_binomial_gather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, rel = rel_rank(prm, rank);
  for (int64_t mask = 1; mask < p; mask <<= 1) {
    int32_t step_tag = tag + cs_log2_pow2(mask);
    if (rel & mask) {
      cs_ops_send(out, abs_rank(prm, rel - mask), step_tag,
                  rel_blocks(prm, rel, cs_binomial_subtree_size(rel, p)));
      return;
    }
    int64_t child = rel + mask;
    if (child < p)
      cs_ops_recv(out, abs_rank(prm, child), step_tag, rel_blocks(prm, child, cs_binomial_subtree_size(child, p)));
  }
}

void cs_obl_ring_allgather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, m = prm->nunits / p;
  if (p == 1)
    return;
  int64_t right = (rank + 1) % p, left = (rank - 1 + p) % p;
  cs_ops_loop(out, p - 1, 2);
  cs_ops_send(out, right, tag, cs_units_block(prm, rank));
  cs_ops_step(out, 0, -m);
  cs_ops_recv(out, left, tag, cs_units_block(prm, left));
  cs_ops_step(out, 0, -m);
}

void cs_obl_pairwise_reduce_scatter(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, m = prm->nunits / p;
  if (p == 1)
    return;
  int64_t first_dst = (rank + 1) % p, first_src = (rank - 1 + p) % p;
  cs_ops_loop(out, p - 1, 2);
  cs_ops_send(out, first_dst, tag, cs_units_block(prm, first_dst));
  cs_ops_step(out, 1, m);
  cs_ops_recv_reduce(out, first_src, tag, cs_units_block(prm, rank));
  cs_ops_step(out, -1, 0);
}

/* ---- costs ---- */

int64_t cs_obl_shift_partner(const cs_sched_params *prm, int64_t rank, int64_t d) { return (rank + d) % prm->p; }

int64_t cs_obl_xor_partner(const cs_sched_params *prm, int64_t rank, int64_t d)
{
  int64_t q = rank ^ d;
  return q < prm->p ? q : -1;
}

/* Bytes of relative rank child's subtree. */
static double subtree_bytes(const cs_sched_params *prm, int64_t child, double b)
{
  return (double)cs_binomial_subtree_size(child, prm->p) * b;
}

/* Bytes rel's port carries while its send of s bytes is on the wire: every
 * off-node child's subtree, each up to s (its sends share the port fairly). */
static double port_share(const cs_sched_params *prm, int64_t rel, int64_t first_mask, double s, double b)
{
  double load = 0;
  for (int64_t mask = first_mask; mask > 0; mask >>= 1) {
    int64_t child = rel + mask;
    if (child < prm->p && cs_cost_level_of(prm, abs_rank(prm, rel), abs_rank(prm, child)) != CS_LVL_CORE)
      load += fmin(subtree_bytes(prm, child, b), s);
  }
  return load;
}

/* The time the last rank of rel's subtree has its block, rel having them
 * all at time t (scatter: children largest first, sent at once). */
static double scatter_from(const cs_sched_params *prm, const cs_cost_params *c, int64_t rel, int64_t parent_mask,
                           double t, double b)
{
  double end = t, sends = 0;
  for (int64_t mask = parent_mask >> 1; mask > 0; mask >>= 1) {
    int64_t child = rel + mask;
    if (child >= prm->p)
      continue;
    double s = subtree_bytes(prm, child, b);
    cs_cost_step st = cs_cost_message(prm, abs_rank(prm, rel), abs_rank(prm, child), s);
    if (st.level != CS_LVL_CORE)
      st.port_bytes = port_share(prm, rel, parent_mask >> 1, s, b);
    st.sends = ++sends;
    end = fmax(end, scatter_from(prm, c, child, mask, t + cs_cost_step_time(c, &st), b));
  }
  return end;
}

/* The time rel has its subtree's blocks (gather: children nearest first,
 * their messages through rel's port one after another). */
static double gather_at(const cs_sched_params *prm, const cs_cost_params *c, int64_t rel, double b)
{
  double t = 0, port_free = 0;
  for (int64_t mask = 1; mask < prm->p && !(rel & mask) && rel + mask < prm->p; mask <<= 1) {
    int64_t child = rel + mask;
    double s = subtree_bytes(prm, child, b), ready = gather_at(prm, c, child, b) + c->o_send;
    cs_cost_step st = cs_cost_message(prm, abs_rank(prm, child), abs_rank(prm, rel), s);
    st.sends = st.recvs = 0;
    double arrive = ready + cs_cost_step_time(c, &st);
    if (st.level != CS_LVL_CORE) {
      port_free = fmax(port_free, ready) + s * c->beta_port;
      arrive = fmax(arrive, port_free + c->alpha[st.level]);
    }
    t = fmax(t, arrive) + c->o_recv;
  }
  return t;
}

double cs_obl_binomial_cost(const cs_sched_params *prm, const cs_cost_params *c, double b, bool scatter)
{
  return scatter ? scatter_from(prm, c, 0, cs_binomial_child_limit(0, prm->p), 0, b) : gather_at(prm, c, 0, b);
}

double cs_obl_ring_cost(const cs_sched_params *prm, const cs_cost_params *c, double b)
{
  if (prm->p < 2)
    return 0;
  cs_cost_step s = cs_cost_pattern(prm, cs_obl_shift_partner, 1, b);
  s.recvs = 0; /* a rank receives while its message to rank+1 travels */
  double step = fmax(cs_cost_step_time(c, &s), c->o_send + c->o_recv), lap = 0, fastest = INFINITY;
  for (int64_t r = 0; r < prm->p; r++) {
    cs_cost_step e = cs_cost_message(prm, r, (r + 1) % prm->p, b);
    double t = cs_cost_step_time(c, &e);
    lap += t;
    fastest = fmin(fastest, t);
  }
  return fmax((double)(prm->p - 1) * step, lap - fastest);
}

double cs_obl_pairwise_cost(const cs_sched_params *prm, const cs_cost_params *c, double b)
{
  double t = 0;
  for (int64_t i = 1; i < prm->p; i++) {
    cs_cost_step s = cs_cost_uniform_pattern(prm, cs_obl_shift_partner, i, b);
    s.combined = b;
    t += cs_cost_step_time(c, &s);
  }
  return t;
}
