/* Two-tier chunked broadcast (seed 001, Section 5.2, the six steps), root =
 * rank 0.
 *
 * Units: nunits = nps; unit i = chunk i.  Core 0 of each node acts for the
 * node.  A "seed" of chunk i is a supernode that receives chunk i in step 2.
 *
 * "two-tier" (the literal reading):
 *   1. root -> core 0 of node i of supernode 0: chunk i (i = 1..nps-1).
 *   2. core 0 of node i of supernode 0 -> core 0 of node landing(0, t) of
 *      EXACTLY ONE supernode t linked to node i (gateway(0, t) = i): the
 *      lowest-numbered such t.  If node i has no L2 link (sn - 1 < nps), chunk
 *      i goes, routed through the gateway, to supernode 1 + (k mod (sn-1)),
 *      k = rank of i among such chunks.
 *   3. the node of t that received in step 2 -> every other node of t: the
 *      chunks of t.
 *   4. every node j of a seed t -> the landing node of EVERY supernode u linked
 *      to j (gateway(t, u) = j), including supernode 0 and other seeds: the
 *      chunks of t.
 *   5. every node that received in step 4 -> every other node of its
 *      supernode: the chunks it received (each once).  Supernode 0 learns
 *      the chunks this way (PERCS: node i gets chunk i back from its seed and
 *      shares it).
 *   6. core 0 -> every other core of its node: the whole buffer.
 *   With sn = 1 (no seeds) node i of supernode 0 shares chunk i with the
 *   other non-root nodes instead of steps 2-5.
 *
 * "two-tier-every" (step 2 read as "one node in every linked supernode"):
 *   node i sends chunk i to every supernode linked to it; steps 3-6 as above
 *   (a supernode receives a chunk from several seeds in step 4 and its
 *   landing node shares each distinct chunk once).  PERCS 64,16,16: all 15360
 *   L1 links (64 MB / 128 MB) as Table 3; 4032 L2 links of 64 MB.
 *
 * "two-tier-missing" (step 4 only to supernodes still missing the chunk):
 *   as "two-tier" but step 4 skips supernode 0, whose nodes instead share
 *   their step-1 chunk with every other non-root node (the root holds all).
 *
 * Costs (sim/contracts/cost.h; Table 2's 3 n beta / nps counts three chunk
 * transfers, the six steps chain five network steps): the six steps one
 * after another, each at its busiest node of the reading: k2 seeds of one
 * chunk (its node sends them at once), ks chunks of one seed, k4 L2 links
 * of a seed's node that step 4 uses, k5 distinct chunks a node receives in
 * step 4; the root's step-1 and step-2 sends leave at once (its port).
 * Step 2 reaches an orphan chunk's seed through the gateway (a supernode
 * route) and the seed's L2 link carries all its ks chunks.  "two-tier-missing"
 * also runs supernode 0's own path (steps 1, share, 6), the slower counts. */
#include "algorithms/collectives/twotier.h"

#include <math.h>
#include <stdlib.h>

enum {
  STEP_CHUNKS = 1,
  STEP_SEED,
  STEP_SEED_SPREAD,
  STEP_SEEDS_OUT,
  STEP_SHARE,
  STEP_SUPERNODE0_SHARE,
  STEP_IN_NODE
};

typedef struct reading {
  bool seed_every_link;  /* step 2 to every linked supernode */
  bool spare_supernode0; /* step 4 skips supernode 0 */
} reading;

static const reading literal = {false, false}, every = {true, false}, missing = {false, true};

static bool plan(cs_sched_params *prm, GError **err)
{
  prm->nunits = prm->tt->nps;
  return tt_check_tags(prm, "two-tier bcast", err);
}

/* Bucket t: the chunks supernode t receives in step 2 (none for t = 0). */
static void seed_chunks(const cs_sched_params *prm, const reading *rd, tt_buckets *seeds)
{
  int64_t sn = prm->tt->sn, nps = prm->tt->nps;
  tt_buckets g;
  tt_by_gateway(prm, 0, &g);
  size_t n = 0;
  int64_t *key = g_new(int64_t, sn + nps), *chunk = g_new(int64_t, sn + nps), orphans = 0;
  for (int64_t i = 0; i < nps && sn > 1; i++) {
    int64_t linked = tt_bucket_size(&g, i);
    if (linked == 0) {
      key[n] = 1 + orphans++ % (sn - 1);
      chunk[n++] = i;
    }
    int64_t seeds_of_i = rd->seed_every_link ? linked : (linked > 0 ? 1 : 0);
    for (int64_t k = 0; k < seeds_of_i; k++) {
      key[n] = tt_bucket(&g, i)[k];
      chunk[n++] = i;
    }
  }
  tt_buckets_build(seeds, sn, n, key, chunk);
  g_free(key);
  g_free(chunk);
  tt_buckets_free(&g);
}

static bool receives_step4(const reading *rd, int64_t u) { return !(rd->spare_supernode0 && u == 0); }

static int cmp_pair(const void *a, const void *b)
{
  const int64_t *x = a, *y = b;
  return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Bucket k: the distinct chunks node k of supernode u receives in step 4. */
static void chunks_received(const cs_sched_params *prm, const reading *rd, const tt_buckets *seeds, int64_t u,
                            tt_buckets *recv)
{
  int64_t total = seeds->start[seeds->nb];
  int64_t *pair = g_new(int64_t, 2 * (total + 1));
  size_t n = 0;
  for (int64_t t = 0; t < prm->tt->sn; t++) {
    if (t == u || !receives_step4(rd, u))
      continue;
    for (int64_t i = 0; i < tt_bucket_size(seeds, t); i++) {
      pair[2 * n] = tt_landing(prm, t, u);
      pair[2 * n + 1] = tt_bucket(seeds, t)[i];
      n++;
    }
  }
  qsort(pair, n, 2 * sizeof(int64_t), cmp_pair);
  int64_t *key = g_new(int64_t, n + 1), *chunk = g_new(int64_t, n + 1);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (i == 0 || pair[2 * i] != pair[2 * i - 2] || pair[2 * i + 1] != pair[2 * i - 1]) {
      key[m] = pair[2 * i];
      chunk[m++] = pair[2 * i + 1];
    }
  tt_buckets_build(recv, prm->tt->nps, m, key, chunk);
  g_free(pair);
  g_free(key);
  g_free(chunk);
}

/* Step 1. */
static void split_in_supernode0(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  if (w->node == 0)
    tt_ops_range(out, prm, CS_OP_SEND, 0, prm->tt->cpn, 1, prm->tt->nps, tt_tag(prm, STEP_CHUNKS, 0, 0),
                 cs_units_range(0, 1), 1);
  else
    cs_ops_recv(out, 0, tt_tag(prm, STEP_CHUNKS, 0, w->node), cs_units_range(w->node, 1));
}

/* Step 2, sending side: node i of supernode 0 sends chunk i to its seeds. */
static void send_to_seeds(const cs_sched_params *prm, const tt_buckets *seeds, int64_t i, cs_oplist *out)
{
  for (int64_t t = 1; t < prm->tt->sn; t++)
    for (int64_t k = 0; k < tt_bucket_size(seeds, t); k++)
      if (tt_bucket(seeds, t)[k] == i)
        cs_ops_send(out, tt_leader(prm, t, tt_landing(prm, 0, t)), tt_tag(prm, STEP_SEED, 0, 0),
                    cs_units_range(i, 1));
}

/* Steps 2 (receiving side) and 3 in a seed supernode. */
static void seed_spread(const cs_sched_params *prm, const tt_where *w, const tt_buckets *seeds, cs_oplist *out)
{
  int64_t t = w->sn, landing = tt_landing(prm, 0, t);
  if (tt_bucket_size(seeds, t) == 0)
    return;
  if (w->node != landing) {
    tt_ops_bucket(out, prm, CS_OP_RECV, tt_leader(prm, t, landing), seeds, t, 1, STEP_SEED_SPREAD,
                  landing + w->node);
    return;
  }
  for (int64_t k = 0; k < tt_bucket_size(seeds, t); k++) {
    int64_t i = tt_bucket(seeds, t)[k];
    cs_ops_recv(out, tt_leader(prm, 0, i), tt_tag(prm, STEP_SEED, 0, 0), cs_units_range(i, 1));
  }
  size_t n = (size_t)tt_bucket_size(seeds, t);
  tt_prog *g = g_new(tt_prog, n);
  size_t ng = tt_progressions(tt_bucket(seeds, t), n, g);
  for (size_t k = 0; k < ng; k++)
    tt_ops_other_nodes(out, prm, CS_OP_SEND, t, landing, tt_tag(prm, STEP_SEED_SPREAD, (int64_t)k, landing),
                       tt_prog_units(g[k], 1), 0);
  g_free(g);
}

/* Step 4, sending side: node j of seed t sends t's chunks over its L2 links. */
static void seed_sends_out(const cs_sched_params *prm, const reading *rd, const tt_where *w,
                           const tt_buckets *seeds, cs_oplist *out)
{
  int64_t t = w->sn;
  if (tt_bucket_size(seeds, t) == 0)
    return;
  tt_buckets g;
  tt_by_gateway(prm, t, &g);
  for (int64_t k = 0; k < tt_bucket_size(&g, w->node); k++) {
    int64_t u = tt_bucket(&g, w->node)[k];
    if (receives_step4(rd, u))
      tt_ops_bucket(out, prm, CS_OP_SEND, tt_leader(prm, u, tt_landing(prm, t, u)), seeds, t, 1, STEP_SEEDS_OUT, 0);
  }
  tt_buckets_free(&g);
}

/* Step 4, receiving side: the seeds whose links to u land on this node. */
static void receive_from_seeds(const cs_sched_params *prm, const reading *rd, const tt_where *w,
                               const tt_buckets *seeds, cs_oplist *out)
{
  int64_t u = w->sn;
  if (!receives_step4(rd, u))
    return;
  tt_buckets l;
  tt_by_landing(prm, u, &l);
  for (int64_t k = 0; k < tt_bucket_size(&l, w->node); k++) {
    int64_t t = tt_bucket(&l, w->node)[k];
    tt_ops_bucket(out, prm, CS_OP_RECV, tt_leader(prm, t, tt_gateway(prm, t, u)), seeds, t, 1, STEP_SEEDS_OUT, 0);
  }
  tt_buckets_free(&l);
}

/* Step 5: share what step 4 brought with the other nodes of the supernode. */
static void share_received(const cs_sched_params *prm, const reading *rd, const tt_where *w,
                           const tt_buckets *seeds, cs_oplist *out)
{
  int64_t u = w->sn, me = w->node;
  tt_buckets r;
  chunks_received(prm, rd, seeds, u, &r);
  size_t n = (size_t)tt_bucket_size(&r, me);
  tt_prog *g = g_new(tt_prog, n > 0 ? n : 1);
  size_t ng = tt_progressions(tt_bucket(&r, me), n, g);
  for (size_t k = 0; k < ng; k++)
    tt_ops_other_nodes(out, prm, CS_OP_SEND, u, me, tt_tag(prm, STEP_SHARE, (int64_t)k, me), tt_prog_units(g[k], 1),
                       0);
  g_free(g);
  for (int64_t k = 0; k < prm->tt->nps; k++)
    if (k != me)
      tt_ops_bucket(out, prm, CS_OP_RECV, tt_leader(prm, u, k), &r, k, 1, STEP_SHARE, k + me);
  tt_buckets_free(&r);
}

/* Supernode 0 without step 4: node i shares chunk i with every other node
 * but the root, which holds them all. */
static void supernode0_shares_chunks(const cs_sched_params *prm, const tt_where *w, cs_oplist *out)
{
  int64_t i = w->node, nps = prm->tt->nps, cpn = prm->tt->cpn;
  int32_t tag0 = tt_tag(prm, STEP_SUPERNODE0_SHARE, 0, i);
  cs_units chunk = cs_units_range(i, 1);
  tt_ops_range(out, prm, CS_OP_SEND, 0, cpn, 1, i, tag0, chunk, 0);
  tt_ops_range(out, prm, CS_OP_SEND, 0, cpn, i + 1, nps, tag0, chunk, 0);
  if (i != 0)
    tt_ops_others(out, prm, CS_OP_RECV, 0, cpn, nps, i, tag0, cs_units_range(0, 1), 1);
}

static void leader_ops(const cs_sched_params *prm, const reading *rd, const tt_where *w, cs_oplist *out)
{
  tt_buckets seeds;
  seed_chunks(prm, rd, &seeds);
  if (w->sn == 0) {
    split_in_supernode0(prm, w, out);
    send_to_seeds(prm, &seeds, w->node, out);
  } else {
    seed_spread(prm, w, &seeds, out);
    seed_sends_out(prm, rd, w, &seeds, out);
  }
  receive_from_seeds(prm, rd, w, &seeds, out);
  share_received(prm, rd, w, &seeds, out);
  if (w->sn == 0 && (rd->spare_supernode0 || prm->tt->sn == 1))
    supernode0_shares_chunks(prm, w, out);
  tt_buckets_free(&seeds);
}

static void ops_reading(const cs_sched_params *prm, const reading *rd, int64_t rank, cs_oplist *out)
{
  tt_where w = tt_locate(prm, rank);
  if (w.core == 0)
    leader_ops(prm, rd, &w, out);
  tt_node_bcast(out, prm, rank, STEP_IN_NODE);
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out) { ops_reading(prm, &literal, rank, out); }

static void ops_every(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  ops_reading(prm, &every, rank, out);
}

static void ops_missing(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  ops_reading(prm, &missing, rank, out);
}

/* ---- costs ---- */

/* The most seeds of one chunk (k2) and the most chunks of one seed (ks). */
static void seed_counts(const cs_sched_params *prm, const tt_buckets *seeds, int64_t *k2, int64_t *ks)
{
  int64_t *per_chunk = g_new0(int64_t, prm->tt->nps);
  *k2 = *ks = 0;
  for (int64_t t = 0; t < seeds->nb; t++) {
    *ks = tt_bucket_size(seeds, t) > *ks ? tt_bucket_size(seeds, t) : *ks;
    for (int64_t i = 0; i < tt_bucket_size(seeds, t); i++)
      per_chunk[tt_bucket(seeds, t)[i]]++;
  }
  for (int64_t i = 0; i < prm->tt->nps; i++)
    *k2 = per_chunk[i] > *k2 ? per_chunk[i] : *k2;
  g_free(per_chunk);
}

/* The most L2 links a node of a seed uses in step 4 (k4). */
static int64_t most_step4_links(const cs_sched_params *prm, const reading *rd, const tt_buckets *seeds)
{
  int64_t best = 0;
  for (int64_t t = 1; t < prm->tt->sn; t++) {
    if (tt_bucket_size(seeds, t) == 0)
      continue;
    tt_buckets g;
    tt_by_gateway(prm, t, &g);
    for (int64_t j = 0; j < prm->tt->nps; j++) {
      int64_t k = 0;
      for (int64_t i = 0; i < tt_bucket_size(&g, j); i++)
        k += receives_step4(rd, tt_bucket(&g, j)[i]);
      best = k > best ? k : best;
    }
    tt_buckets_free(&g);
  }
  return best;
}

/* The most distinct chunks one node receives in step 4 (k5). */
static int64_t most_chunks_received(const cs_sched_params *prm, const reading *rd, const tt_buckets *seeds)
{
  int64_t best = 0;
  for (int64_t u = 0; u < prm->tt->sn; u++) {
    tt_buckets r;
    chunks_received(prm, rd, seeds, u, &r);
    for (int64_t k = 0; k < prm->tt->nps; k++)
      best = tt_bucket_size(&r, k) > best ? tt_bucket_size(&r, k) : best;
    tt_buckets_free(&r);
  }
  return best;
}

/* Step 2 at a level: a node sends its chunk to k2 seeds, a seed's landing
 * node receives its ks chunks (over one L2 link when they are orphans). */
static double cost_seed_step(const cs_cost_params *c, cs_cost_level level, int64_t k2, int64_t ks, double ch)
{
  cs_cost_step s = cs_cost_fan(level, (double)k2, ch);
  s.recvs = (double)ks;
  s.l2_bytes = (double)ks * ch;
  return cs_cost_step_time(c, &s);
}

/* Steps 1-2: chunk i reaches node i, then its seeds; an orphan chunk (node
 * i has no L2 link) travels from node i through a gateway (a supernode
 * route), the root's own chunk without step 1. */
static double cost_to_seeds(const cs_sched_params *prm, const cs_cost_params *c, int64_t k2, int64_t ks, double ch)
{
  int64_t nps = prm->tt->nps;
  cs_cost_step first = cs_cost_fan(CS_LVL_NODE, (double)(nps - 1), ch);
  first.port_bytes = (double)(nps - 1 + k2) * ch;
  double t1 = nps > 1 ? cs_cost_step_time(c, &first) : 0, orphan = cost_seed_step(c, CS_LVL_SUPERNODE, k2, ks, ch);
  double t = t1 + cost_seed_step(c, CS_LVL_GATEWAY, k2, ks, ch);
  tt_buckets g;
  tt_by_gateway(prm, 0, &g);
  for (int64_t i = 0; i < nps; i++)
    if (tt_bucket_size(&g, i) == 0)
      t = fmax(t, (i == 0 ? 0 : t1) + orphan);
  tt_buckets_free(&g);
  return t;
}

/* Steps 1-5 over the seeds (sn > 1). */
static double cost_through_seeds(const cs_sched_params *prm, const cs_cost_params *c, const reading *rd, double ch)
{
  int64_t nps = prm->tt->nps, k2, ks;
  tt_buckets seeds;
  seed_chunks(prm, rd, &seeds);
  seed_counts(prm, &seeds, &k2, &ks);
  double t = cost_to_seeds(prm, c, k2, ks, ch) + tt_cost_out(c, CS_LVL_NODE, nps - 1, (double)ks * ch) +
             tt_cost_out(c, CS_LVL_GATEWAY, most_step4_links(prm, rd, &seeds), (double)ks * ch) +
             tt_cost_exchange(c, CS_LVL_NODE, nps - 1, nps - 1, (double)most_chunks_received(prm, rd, &seeds) * ch);
  tt_buckets_free(&seeds);
  return t;
}

/* Supernode 0 sharing the step-1 chunks among its nodes (steps 1 and share). */
static double cost_in_supernode0(const cs_sched_params *prm, const cs_cost_params *c, double ch)
{
  int64_t nps = prm->tt->nps;
  return tt_cost_out(c, CS_LVL_NODE, nps - 1, ch) + tt_cost_exchange(c, CS_LVL_NODE, nps - 2, nps - 2, ch);
}

static double cost_reading(const cs_sched_params *prm, const cs_cost_params *c, const reading *rd)
{
  double n = (double)prm->bytes, ch = n / (double)prm->tt->nps;
  double t = prm->tt->sn > 1 ? cost_through_seeds(prm, c, rd, ch) : 0;
  if (prm->tt->sn == 1 || rd->spare_supernode0)
    t = fmax(t, cost_in_supernode0(prm, c, ch));
  return t + tt_cost_node_spread(prm, c, n);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c) { return cost_reading(prm, c, &literal); }

static double cost_every(const cs_sched_params *prm, const cs_cost_params *c) { return cost_reading(prm, c, &every); }

static double cost_missing(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cost_reading(prm, c, &missing);
}

#define CHUNK_COST(k2, k4, extra) \
  "[sn > 1: fan_1(nps-1, ch) with the root's port at (nps-1+k2)*ch, + fan_g(k2, ch) + fan_1(nps-1, ks*ch) + " \
  "fan_g(k4, ks*ch) + xchg_1(nps-1, k5*ch)]" extra " + fan_0(cpn-1, n), ch = n/nps, k2 = " k2 ", k4 = " k4 \
  "; ks: most chunks of a seed, k5: most distinct chunks a node gets in step 4"

#define SN1_COST " (sn = 1: fan_1(nps-1, ch) + xchg_1(nps-2, ch))"

const cs_coll_algo cs_algo_twotier_bcast = {
    "two-tier", CS_COLL_BCAST,
    "Sec. 5.2 six steps: nps chunks, one seed supernode per chunk, seeds send to every linked supernode", plan, ops,
    true, cost, CHUNK_COST("1 seed per chunk", "most L2 links of a seed's node", SN1_COST)};

const cs_coll_algo cs_algo_twotier_bcast_every = {
    "two-tier-every", CS_COLL_BCAST, "Sec. 5.2, step 2 read as: each chunk to every supernode linked to its node",
    plan, ops_every, true, cost_every,
    CHUNK_COST("most L2 links of a node of supernode 0", "most L2 links of a seed's node", SN1_COST)};

const cs_coll_algo cs_algo_twotier_bcast_missing = {
    "two-tier-missing", CS_COLL_BCAST,
    "Sec. 5.2, step 4 read as: only to supernodes missing the chunk (supernode 0 shares internally)", plan,
    ops_missing, true, cost_missing,
    CHUNK_COST("1 seed per chunk", "most L2 links of a seed's node to supernodes but 0",
               ", at least supernode 0's fan_1(nps-1, ch) + xchg_1(nps-2, ch)")};
