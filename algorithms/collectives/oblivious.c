/* Helpers shared by the topology-oblivious schedules; see oblivious.h. */
#include "algorithms/collectives/oblivious.h"

#include <math.h>
#include <stdlib.h>

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

void cs_obl_binomial_bcast(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, rel = rel_rank(prm, rank);
  cs_units all = cs_units_all(prm);
  int64_t parent_mask = cs_binomial_child_limit(rel, p);
  if (rel != 0)
    cs_ops_recv(out, abs_rank(prm, cs_binomial_parent(rel)), tag + cs_log2_pow2(parent_mask), all);
  for (int64_t mask = parent_mask >> 1; mask > 0; mask >>= 1)
    if (rel + mask < p)
      cs_ops_send(out, abs_rank(prm, rel + mask), tag + cs_log2_pow2(mask), all);
}

void cs_obl_binomial_reduce(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, rel = rel_rank(prm, rank);
  cs_units all = cs_units_all(prm);
  for (int64_t mask = 1; mask < cs_binomial_child_limit(rel, p); mask <<= 1)
    if (rel + mask < p)
      cs_ops_recv_reduce(out, abs_rank(prm, rel + mask), tag + cs_log2_pow2(mask), all);
  if (rel != 0)
    cs_ops_send(out, abs_rank(prm, cs_binomial_parent(rel)), tag + cs_log2_pow2(cs_lowbit(rel)), all);
}

void cs_obl_bruck_allgather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p;
  for (int64_t k = 1; k < p; k <<= 1) {
    int64_t count = k < p - k ? k : p - k;
    cs_ops_send(out, (rank - k + p) % p, tag + cs_log2_pow2(k), cs_units_blocks(prm, rank, count));
    cs_ops_recv(out, (rank + k) % p, tag + cs_log2_pow2(k), cs_units_blocks(prm, rank + k, count));
  }
}

enum { RD_FIXUP_TAG = 64, RD_FIXUP_TAGS_PER_STEP = 64 };

/* The blocks of the aligned group of `mask` relative ranks starting at
 * group_root, cut at p. */
static cs_units rd_group_blocks(const cs_sched_params *prm, int64_t group_root, int64_t mask)
{
  int64_t end = group_root + mask < prm->p ? group_root + mask : prm->p;
  return rel_blocks(prm, group_root, end - group_root);
}

/* MPICH's recursive-halving fix-up inside rel's group of `mask` ranks,
 * whose first nc ranks received the partner group's nc blocks
 * [group root + mask, p) in the exchange and the others did not. */
static void rd_fixup(const cs_sched_params *prm, int64_t rel, int32_t tag, int64_t mask, int64_t nc, cs_oplist *out)
{
  int64_t my_root = rel & ~(mask - 1);
  cs_units missing = rel_blocks(prm, my_root + mask, nc);
  for (int64_t tmp = mask >> 1; tmp > 0; tmp >>= 1) {
    int64_t tree = rel & ~(2 * tmp - 1), have_end = tree + nc, peer = rel ^ tmp;
    int32_t t = tag + cs_log2_pow2(tmp);
    if (peer > rel && rel < have_end && peer >= have_end)
      cs_ops_send(out, abs_rank(prm, peer), t, missing);
    else if (peer < rel && peer < have_end && rel >= have_end)
      cs_ops_recv(out, abs_rank(prm, peer), t, missing);
  }
}

void cs_obl_recursive_doubling_allgather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, rel = rel_rank(prm, rank);
  int step = 0;
  for (int64_t mask = 1; mask < p; mask <<= 1, step++) {
    int64_t dst = rel ^ mask;
    int64_t my_root = rel & ~(mask - 1), dst_root = dst & ~(mask - 1);
    if (dst < p) {
      cs_ops_send(out, abs_rank(prm, dst), tag + step, rd_group_blocks(prm, my_root, mask));
      cs_ops_recv(out, abs_rank(prm, dst), tag + step, rd_group_blocks(prm, dst_root, mask));
    }
    int64_t nc = p - my_root - mask;
    if (dst_root + mask > p && nc > 0)
      rd_fixup(prm, rel, tag + RD_FIXUP_TAG + RD_FIXUP_TAGS_PER_STEP * step, mask, nc, out);
  }
}

void cs_obl_segmented_bcast(const cs_sched_params *prm, int64_t parent, const int64_t *children, int nchildren,
                            cs_oplist *out)
{
  int body = (parent >= 0) + nchildren;
  if (body == 0)
    return;
  cs_units first = cs_units_range(0, 1);
  cs_ops_loop(out, prm->nunits, body);
  if (parent >= 0) {
    cs_ops_recv(out, parent, 0, first);
    cs_ops_step(out, 0, 1);
  }
  for (int i = 0; i < nchildren; i++) {
    cs_ops_send(out, children[i], 0, first);
    cs_ops_step(out, 0, 1);
  }
}

void cs_obl_tree_bcast(const cs_sched_params *prm, int64_t rank, cs_obl_parent_fn parent_of,
                       cs_obl_children_fn children_of, int fanout, cs_oplist *out)
{
  int64_t rel = rel_rank(prm, rank), kids[64];
  g_assert(fanout <= 64);
  int k = children_of(rel, fanout, prm->p, kids);
  for (int i = 0; i < k; i++)
    kids[i] = abs_rank(prm, kids[i]);
  int64_t parent = parent_of(rel, fanout, prm->p);
  cs_obl_segmented_bcast(prm, parent < 0 ? -1 : abs_rank(prm, parent), kids, k, out);
}

enum { MAX_SEGMENTS = 1 << 30 };

bool cs_obl_plan_segments(cs_sched_params *prm, GError **err)
{
  if (prm->segment == 0) {
    prm->nunits = 1;
    return true;
  }
  uint64_t segments = prm->bytes / prm->segment + (prm->bytes % prm->segment != 0);
  if (segments > MAX_SEGMENTS) {
    g_set_error(err, CS_SCHED_ERROR, 1, "%s %s: %llu bytes in segments of %llu bytes make more than 2^30 segments "
                "(give a larger --segment)", cs_coll_name(prm->coll), "segmented tree", (unsigned long long)prm->bytes,
                (unsigned long long)prm->segment);
    return false;
  }
  prm->nunits = segments > 0 ? (int64_t)segments : 1;
  return true;
}

/* ---- costs ---- */

int64_t cs_obl_shift_partner(const cs_sched_params *prm, int64_t rank, int64_t d) { return (rank + d) % prm->p; }

int64_t cs_obl_xor_partner(const cs_sched_params *prm, int64_t rank, int64_t d)
{
  int64_t q = rank ^ d;
  return q < prm->p ? q : -1;
}

/* Bytes of relative rank child's subtree; or b itself if `whole` (the
 * broadcast and the reduce send the whole buffer b to every child). */
static double subtree_bytes(const cs_sched_params *prm, int64_t child, double b, bool whole)
{
  return whole ? b : (double)cs_binomial_subtree_size(child, prm->p) * b;
}

/* Bytes rel's port carries while its send of s bytes is on the wire: every
 * off-node child's subtree, each up to s (its sends share the port fairly). */
static double port_share(const cs_sched_params *prm, int64_t rel, int64_t first_mask, double s, double b, bool whole)
{
  double load = 0;
  for (int64_t mask = first_mask; mask > 0; mask >>= 1) {
    int64_t child = rel + mask;
    if (child < prm->p && cs_cost_level_of(prm, abs_rank(prm, rel), abs_rank(prm, child)) != CS_LVL_CORE)
      load += fmin(subtree_bytes(prm, child, b, whole), s);
  }
  return load;
}

/* The time the last rank of rel's subtree has its block, rel having them
 * all at time t (scatter: children largest first, sent at once). */
static double scatter_from(const cs_sched_params *prm, const cs_cost_params *c, int64_t rel, int64_t parent_mask,
                           double t, double b, bool whole)
{
  double end = t, sends = 0;
  for (int64_t mask = parent_mask >> 1; mask > 0; mask >>= 1) {
    int64_t child = rel + mask;
    if (child >= prm->p)
      continue;
    double s = subtree_bytes(prm, child, b, whole);
    cs_cost_step st = cs_cost_message(prm, abs_rank(prm, rel), abs_rank(prm, child), s);
    if (st.level != CS_LVL_CORE)
      st.port_bytes = port_share(prm, rel, parent_mask >> 1, s, b, whole);
    st.sends = ++sends;
    end = fmax(end, scatter_from(prm, c, child, mask, t + cs_cost_step_time(c, &st), b, whole));
  }
  return end;
}

/* The time rel has its subtree's blocks (gather: children nearest first,
 * their messages through rel's port one after another); with `whole`, the
 * reduce: every message is the buffer b, combined at b*g. */
static double gather_at(const cs_sched_params *prm, const cs_cost_params *c, int64_t rel, double b, bool whole)
{
  double t = 0, port_free = 0;
  for (int64_t mask = 1; mask < prm->p && !(rel & mask) && rel + mask < prm->p; mask <<= 1) {
    int64_t child = rel + mask;
    double s = subtree_bytes(prm, child, b, whole), ready = gather_at(prm, c, child, b, whole) + c->o_send;
    cs_cost_step st = cs_cost_message(prm, abs_rank(prm, child), abs_rank(prm, rel), s);
    st.sends = st.recvs = 0;
    double arrive = ready + cs_cost_step_time(c, &st);
    if (st.level != CS_LVL_CORE) {
      port_free = fmax(port_free, ready) + s * c->beta_port;
      arrive = fmax(arrive, port_free + c->alpha[st.level]);
    }
    t = fmax(t, arrive) + c->o_recv;
    if (whole)
      t += s * c->gamma;
  }
  return t;
}

double cs_obl_binomial_cost(const cs_sched_params *prm, const cs_cost_params *c, double b, bool scatter)
{
  return scatter ? scatter_from(prm, c, 0, cs_binomial_child_limit(0, prm->p), 0, b, false)
                 : gather_at(prm, c, 0, b, false);
}

double cs_obl_binomial_bcast_cost(const cs_sched_params *prm, const cs_cost_params *c, double n)
{
  return scatter_from(prm, c, 0, cs_binomial_child_limit(0, prm->p), 0, n, true);
}

double cs_obl_binomial_reduce_cost(const cs_sched_params *prm, const cs_cost_params *c, double n)
{
  return gather_at(prm, c, 0, n, true);
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

double cs_obl_bruck_cost(const cs_sched_params *prm, const cs_cost_params *c, double b)
{
  double t = 0;
  for (int64_t k = 1; k < prm->p; k <<= 1) {
    int64_t count = k < prm->p - k ? k : prm->p - k;
    cs_cost_step s = cs_cost_pattern(prm, cs_obl_shift_partner, prm->p - k, (double)count * b);
    t += cs_cost_step_time(c, &s);
  }
  return t;
}

/* The fix-up of the exchange at distance mask, as its slowest group runs it. */
static double rd_fixup_cost(const cs_sched_params *prm, const cs_cost_params *c, int64_t mask, double b)
{
  double worst = 0;
  for (int64_t root = 0; root < prm->p; root += mask) {
    int64_t nc = prm->p - root - mask;
    if (((root ^ mask) + mask <= prm->p) || nc <= 0)
      continue;
    double t = 0;
    for (int64_t tmp = mask >> 1; tmp > 0; tmp >>= 1) {
      cs_cost_step s = cs_cost_message(prm, abs_rank(prm, root), abs_rank(prm, root + tmp), (double)nc * b);
      t += cs_cost_step_time(c, &s);
    }
    worst = t > worst ? t : worst;
  }
  return worst;
}

double cs_obl_recursive_doubling_cost(const cs_sched_params *prm, const cs_cost_params *c, double b)
{
  double t = 0;
  for (int64_t mask = 1; mask < prm->p; mask <<= 1) {
    cs_cost_step s = cs_cost_pattern(prm, cs_obl_xor_partner, mask, (double)mask * b);
    t += cs_cost_step_time(c, &s) + rd_fixup_cost(prm, c, mask, b);
  }
  return t;
}

static int cmp_i64(const void *x, const void *y)
{
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

/* Longest run of equal values in v[0..n) (sorted here). */
static double longest_run(int64_t *v, size_t n)
{
  qsort(v, n, sizeof *v, cmp_i64);
  int64_t best = 0, run = 0;
  for (size_t i = 0; i < n; i++) {
    run = i > 0 && v[i] == v[i - 1] ? run + 1 : 1;
    best = run > best ? run : best;
  }
  return (double)best;
}

/* One step in which the tree edges e[0..n) (relative ranks from -> to) each
 * carry s bytes at once: the slowest edge's level; the most messages
 * between two nodes, out of one node, between two supernodes; the most
 * sends of one rank. */
typedef struct tree_edge {
  int64_t from, to;
} tree_edge;

static cs_cost_step edges_step(const cs_sched_params *prm, const tree_edge *e, size_t n, double s)
{
  int64_t nodes = cs_tt_nodes(prm->tt), nps = prm->tt->nps;
  int64_t *pair = g_new(int64_t, n + 1), *out = g_new(int64_t, n + 1), *l2 = g_new(int64_t, n + 1);
  int64_t *senders = g_new(int64_t, n + 1);
  size_t npair = 0, nl2 = 0;
  cs_cost_step st = cs_cost_at(CS_LVL_CORE, s);
  for (size_t i = 0; i < n; i++) {
    int64_t from = abs_rank(prm, e[i].from), to = abs_rank(prm, e[i].to);
    int64_t a = cs_rank_node(prm, from), b = cs_rank_node(prm, to);
    cs_cost_level l = cs_cost_level_of(prm, from, to);
    senders[i] = from;
    st.level = l > st.level ? l : st.level;
    if (l == CS_LVL_CORE)
      continue;
    pair[npair] = a * nodes + b;
    out[npair++] = a;
    if (l == CS_LVL_SUPERNODE)
      l2[nl2++] = (a / nps) * (nodes / nps) + b / nps;
  }
  st.sends = fmax(1, longest_run(senders, n));
  st.pair_bytes = fmax(s, longest_run(pair, npair) * s);
  st.port_bytes = longest_run(out, npair) * s;
  st.l2_bytes = longest_run(l2, nl2) * s;
  g_free(pair);
  g_free(out);
  g_free(l2);
  g_free(senders);
  return st;
}

/* The tree's edges ordered by the depth of their sender; depth_start[d] is
 * the first edge sent from depth d (d = 0 .. *depths, the last entry the
 * end). */
static tree_edge *edges_by_depth(const cs_sched_params *prm, cs_obl_parent_fn parent_of,
                                 cs_obl_children_fn children_of, int fanout, int64_t **depth_start, int64_t *depths)
{
  int64_t p = prm->p, kids[64], *depth = g_new(int64_t, p), max_depth = 0;
  for (int64_t rel = 0; rel < p; rel++) {
    int64_t parent = parent_of(rel, fanout, p);
    depth[rel] = parent < 0 ? 0 : depth[parent] + 1;
    max_depth = depth[rel] > max_depth ? depth[rel] : max_depth;
  }
  int64_t *start = g_new0(int64_t, max_depth + 2);
  for (int64_t rel = 1; rel < p; rel++)
    start[depth[rel] - 1]++; /* the edge into rel is sent from depth[rel] - 1 */
  for (int64_t d = 0, sum = 0; d <= max_depth + 1; d++) {
    int64_t c = start[d];
    start[d] = sum;
    sum += c;
  }
  tree_edge *e = g_new(tree_edge, p);
  int64_t *fill = g_memdup2(start, sizeof *start * (size_t)(max_depth + 2));
  for (int64_t rel = 0; rel < p; rel++) {
    int k = children_of(rel, fanout, p, kids);
    for (int i = 0; i < k; i++)
      e[fill[depth[rel]]++] = (tree_edge){rel, kids[i]};
  }
  g_free(fill);
  g_free(depth);
  *depth_start = start;
  *depths = max_depth;
  return e;
}

double cs_obl_segmented_cost(const cs_sched_params *prm, const cs_cost_params *c, cs_obl_parent_fn parent_of,
                             cs_obl_children_fn children_of, int fanout)
{
  g_assert(fanout <= 64);
  if (prm->p < 2)
    return 0;
  double s = (double)prm->bytes / (double)prm->nunits, t = 0;
  int64_t *start, depths;
  tree_edge *e = edges_by_depth(prm, parent_of, children_of, fanout, &start, &depths);
  for (int64_t d = 0; d < depths; d++) {
    cs_cost_step st = edges_step(prm, e + start[d], (size_t)(start[d + 1] - start[d]), s);
    t += cs_cost_step_time(c, &st);
  }
  if (prm->nunits > 1) {
    cs_cost_step period = edges_step(prm, e, (size_t)(prm->p - 1), s);
    t += (double)(prm->nunits - 1) * cs_cost_step_time(c, &period);
  }
  g_free(e);
  g_free(start);
  return t;
}

double cs_obl_linear_cost(const cs_sched_params *prm, const cs_cost_params *c, double b, bool scatter)
{
  int64_t p = prm->p, root = prm->root, nodes = cs_tt_nodes(prm->tt), nps = prm->tt->nps;
  if (p < 2)
    return 0;
  double *per_node = g_new0(double, nodes), *per_sn = g_new0(double, nodes / nps);
  cs_cost_step st = cs_cost_at(CS_LVL_CORE, b);
  for (int64_t r = 0; r < p; r++) {
    if (r == root)
      continue;
    cs_cost_level l = cs_cost_level_of(prm, root, r);
    st.level = l > st.level ? l : st.level;
    if (l == CS_LVL_CORE)
      continue;
    int64_t node = cs_rank_node(prm, r);
    st.pair_bytes = fmax(st.pair_bytes, per_node[node] += b);
    st.port_bytes += b;
    if (l == CS_LVL_SUPERNODE)
      st.l2_bytes = fmax(st.l2_bytes, per_sn[node / nps] += b);
  }
  st.sends = scatter ? (double)(p - 1) : 1;
  st.recvs = scatter ? 1 : (double)(p - 1);
  g_free(per_node);
  g_free(per_sn);
  return cs_cost_step_time(c, &st);
}
