/* Tests of the topology-oblivious schedules (seed 001, Section 4, Table 1):
 * binomial scatter and gather, van de Geijn bcast, ring and recursive-
 * doubling allgather, pairwise reduce-scatter, Rabenseifner reduce; and
 * issue 30's MPICH/Open MPI ones: binomial, scatter + recursive-doubling,
 * pipeline, chain and binary-tree bcast, binomial reduce, Bruck allgather,
 * linear scatter and gather (also from roots other than 0, and segmented).
 *  - message counts and bytes, summed over every rank's expanded ops,
 *    equal formulas computed here independently, for many p including
 *    non-powers of two; every send has a matching receive;
 *  - tags are distinct per (sender, receiver) and fit in int32;
 *  - the semantic replay (sim/checks/replay.c) succeeds on PERCS shapes with
 *    blocks that divide evenly and that do not, and reports the same
 *    counts;
 *  - hand-checked op lists for small p;
 *  - ring and pairwise lists stay O(1) long at p = 2^20;
 *  - plan() refuses what the algorithm cannot do, naming the constraint. */
#include "sim/contracts/schedule.h"
#include "sim/checks/replay.h"

#include "tests/lib/algos.h"
#include "platforms/two_tier_net.h"

#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>


/* ck_assert is slow in big loops: test in C and fail only on a mismatch. */
#define EXPECT(cond, ...)                                                                                      \
  do {                                                                                                         \
    if (!(cond))                                                                                               \
      ck_abort_msg(__VA_ARGS__);                                                                               \
  } while (0)

static const int64_t P_LIST[] = {1, 2, 3, 5, 6, 7, 12, 16, 24, 31, 64, 100, 256};
#define NP (sizeof P_LIST / sizeof P_LIST[0])

/* The algorithms of this family, from the registry. */
static const cs_coll_algo *algos_at(size_t i)
{
  const cs_coll_algo *all[] = {
    ALGO_binomial_scatter,
    ALGO_binomial_gather,
    ALGO_vandegeijn_bcast,
    ALGO_ring_allgather,
    ALGO_recursive_doubling_allgather,
    ALGO_pairwise_reduce_scatter,
    ALGO_rabenseifner_reduce,
    ALGO_binomial_bcast,
    ALGO_scatter_rdb_bcast,
    ALGO_pipeline_bcast,
    ALGO_chain_bcast,
    ALGO_bintree_bcast,
    ALGO_binomial_reduce,
    ALGO_bruck_allgather,
    ALGO_linear_scatter,
    ALGO_linear_gather,
  };
  return all[i];
}
#define ALGOS_COUNT 16
#define NALGOS ALGOS_COUNT

static void setup_ok(cs_sched_params *prm, const cs_coll_algo *a, const cs_two_tier *net, uint64_t size)
{
  GError *err = NULL;
  bool ok = cs_sched_setup(prm, a, net, size, &err);
  EXPECT(ok, "%s %s p = %lld size %llu: %s", cs_coll_name(a->coll), a->name, (long long)net->p,
         (unsigned long long)size, err ? err->message : "?");
}

/* ---- independent formulas ---- */

static int64_t pow2_floor(int64_t p)
{
  int64_t x = 1;
  while (2 * x <= p)
    x *= 2;
  return x;
}

static int ilog2(int64_t x)
{
  int k = 0;
  while ((int64_t)1 << (k + 1) <= x)
    k++;
  return k;
}

/* Binomial tree of MPICH, by walking parents: size[r] = ranks in r's subtree. */
static int64_t *binomial_subtree_sizes(int64_t p)
{
  int64_t *size = g_new0(int64_t, p);
  for (int64_t s = 0; s < p; s++)
    for (int64_t r = s;; r -= r & -r) {
      size[r]++;
      if (r == 0)
        break;
    }
  return size;
}

/* Balanced cut of n bytes into k units: unit u's size. */
static uint64_t balanced(uint64_t n, int64_t k, int64_t u)
{
  return n / (uint64_t)k + ((uint64_t)u < n % (uint64_t)k ? 1 : 0);
}

/* Bytes of the binomial scatter/gather moving per-rank data of size unit(r). */
static uint64_t binomial_bytes(int64_t p, uint64_t n_total, bool per_rank_block, uint64_t block)
{
  int64_t *size = binomial_subtree_sizes(p);
  uint64_t sum = 0;
  for (int64_t r = 1; r < p; r++)
    for (int64_t u = r; u < r + size[r]; u++)
      sum += per_rank_block ? block : balanced(n_total, p, u);
  g_free(size);
  return sum;
}

/* Recursive doubling: rank r gets data in step i iff its partner's aligned
 * group holds at least one existing rank. */
static uint64_t recursive_doubling_messages(int64_t p)
{
  uint64_t m = 0;
  for (int64_t r = 0; r < p; r++)
    for (int64_t mask = 1; mask < p; mask <<= 1)
      if (((r ^ mask) & ~(mask - 1)) < p)
        m++;
  return m;
}

typedef struct {
  uint64_t messages, bytes;
} expected;

/* size: block (per-rank collectives) or the whole buffer. */
static expected formula(const cs_coll_algo *a, int64_t p, uint64_t size)
{
  uint64_t up = (uint64_t)p;
  if (a == ALGO_binomial_scatter || a == ALGO_binomial_gather)
    return (expected){up - 1, binomial_bytes(p, 0, true, size)};
  if (a == ALGO_ring_allgather || a == ALGO_pairwise_reduce_scatter)
    return (expected){up * (up - 1), up * (up - 1) * size};
  if (a == ALGO_recursive_doubling_allgather)
    return (expected){recursive_doubling_messages(p), up * (up - 1) * size};
  if (a == ALGO_vandegeijn_bcast)
    return (expected){up - 1 + up * (up - 1), binomial_bytes(p, size, false, 0) + (up - 1) * size};
  /* the scatter's chunks, then every chunk to every other rank */
  if (a == ALGO_scatter_rdb_bcast)
    return (expected){up - 1 + recursive_doubling_messages(p), binomial_bytes(p, size, false, 0) + (up - 1) * size};
  /* trees moving the whole buffer once to every rank but the root (one segment) */
  if (a == ALGO_binomial_bcast || a == ALGO_binomial_reduce || a == ALGO_pipeline_bcast || a == ALGO_chain_bcast ||
      a == ALGO_bintree_bcast)
    return (expected){up - 1, (up - 1) * size};
  if (a == ALGO_linear_scatter || a == ALGO_linear_gather)
    return (expected){up - 1, (up - 1) * size};
  if (a == ALGO_bruck_allgather) {
    uint64_t rounds = 0, blocks = 0;
    for (int64_t k = 1; k < p; k *= 2, rounds++)
      blocks += (uint64_t)(k < p - k ? k : p - k);
    return (expected){up * rounds, up * blocks * size};
  }
  /* Rabenseifner, for size a multiple of pof2 */
  int64_t pof2 = pow2_floor(p), rem = p - pof2;
  int lg = ilog2(pof2);
  return (expected){(uint64_t)(rem + pof2 * lg + pof2 - 1),
                    (uint64_t)rem * size + size * (uint64_t)(pof2 - 1) + size / 2 * (uint64_t)lg};
}

/* ---- counting over the expanded ops ---- */

typedef struct {
  const cs_sched_params *prm;
  int64_t rank;
  uint64_t sends, recvs, send_bytes, recv_bytes;
  GHashTable *tags; /* "src dst tag" of sends */
  bool tag_clash, tag_negative;
} counter;

static bool count_op(const cs_op *op, void *user)
{
  counter *c = user;
  uint64_t b = cs_units_bytes(c->prm, op->units);
  if (op->kind == CS_OP_SEND) {
    c->sends++;
    c->send_bytes += b;
    if (op->tag < 0)
      c->tag_negative = true;
    if (c->tags) {
      char *k = g_strdup_printf("%lld %lld %d", (long long)c->rank, (long long)op->peer, op->tag);
      if (!g_hash_table_add(c->tags, k))
        c->tag_clash = true;
    }
  } else {
    c->recvs++;
    c->recv_bytes += b;
  }
  return true;
}

static counter count_all(const cs_coll_algo *a, const cs_sched_params *prm, bool check_tags)
{
  counter c = {.prm = prm};
  if (check_tags)
    c.tags = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  cs_oplist o;
  cs_oplist_init(&o);
  for (int64_t r = 0; r < prm->p; r++) {
    cs_oplist_clear(&o);
    a->ops(prm, r, &o);
    c.rank = r;
    cs_oplist_expand(prm, &o, count_op, &c);
  }
  cs_oplist_free(&o);
  if (c.tags)
    g_hash_table_destroy(c.tags);
  return c;
}

static uint64_t size_for(const cs_coll_algo *a, int64_t p, uint64_t block)
{
  return cs_coll_per_rank(a->coll) ? block : block * (uint64_t)p;
}

static void check_counts(const cs_coll_algo *a, int64_t p, uint64_t block)
{
  cs_net net = cs_net_percs(p, 1, 1);
  cs_sched_params prm;
  uint64_t size = size_for(a, p, block);
  setup_ok(&prm, a, &net.tt, size);
  counter c = count_all(a, &prm, p <= 100);
  expected e = formula(a, p, size);
  EXPECT(c.sends == e.messages && c.send_bytes == e.bytes,
         "%s %s p = %lld size %llu: %llu messages, %llu bytes; want %llu, %llu", cs_coll_name(a->coll), a->name,
         (long long)p, (unsigned long long)size, (unsigned long long)c.sends, (unsigned long long)c.send_bytes,
         (unsigned long long)e.messages, (unsigned long long)e.bytes);
  EXPECT(c.recvs == c.sends && c.recv_bytes == c.send_bytes, "%s %s p = %lld: %llu sends, %llu receives",
         cs_coll_name(a->coll), a->name, (long long)p, (unsigned long long)c.sends, (unsigned long long)c.recvs);
  EXPECT(!c.tag_clash, "%s %s p = %lld: a (sender, receiver, tag) repeats", cs_coll_name(a->coll), a->name,
         (long long)p);
  EXPECT(!c.tag_negative, "%s %s p = %lld: negative tag", cs_coll_name(a->coll), a->name, (long long)p);
}

START_TEST(test_counts_match_formulas)
{
  const cs_coll_algo *a = algos_at(_i);
  static const uint64_t blocks[] = {64, 1000, 7};
  for (size_t k = 0; k < NP; k++)
    for (size_t b = 0; b < 3; b++) {
      int64_t p = P_LIST[k];
      uint64_t size = size_for(a, p, blocks[b]);
      if (a == ALGO_rabenseifner_reduce && size % (uint64_t)pow2_floor(p) != 0)
        continue; /* the gather's bytes formula assumes equal pieces */
      check_counts(a, p, blocks[b]);
    }
}
END_TEST

/* Vandegeijn with sizes p does not divide: the scatter follows the balanced
 * cut, the ring moves (p-1) n whatever the cut. */
START_TEST(test_vandegeijn_uneven_bytes)
{
  static const uint64_t sizes[] = {1, 7, 97, 1000, 4099};
  for (size_t k = 0; k < NP; k++)
    for (size_t s = 0; s < 5; s++) {
      int64_t p = P_LIST[k];
      cs_net net = cs_net_percs(p, 1, 1);
      cs_sched_params prm;
      setup_ok(&prm, ALGO_vandegeijn_bcast, &net.tt, sizes[s]);
      counter c = count_all(ALGO_vandegeijn_bcast, &prm, false);
      expected e = formula(ALGO_vandegeijn_bcast, p, sizes[s]);
      EXPECT(c.sends == e.messages && c.send_bytes == e.bytes, "vandegeijn p = %lld n = %llu: %llu B, want %llu",
             (long long)p, (unsigned long long)sizes[s], (unsigned long long)c.send_bytes,
             (unsigned long long)e.bytes);
    }
}
END_TEST

/* Rabenseifner with pieces of unequal size: the fold and the halving still
 * move rem n + (pof2 - 1) n bytes; the gather moves at least the root's n
 * minus its own piece, and per level half of the pieces, at most
 * n/2 + pof2/2 bytes. */
START_TEST(test_rabenseifner_uneven_bytes)
{
  static const uint64_t sizes[] = {257, 1000, 4099};
  for (size_t k = 0; k < NP; k++)
    for (size_t s = 0; s < 3; s++) {
      int64_t p = P_LIST[k], pof2 = pow2_floor(p), rem = p - pof2;
      uint64_t n = sizes[s];
      cs_net net = cs_net_percs(p, 1, 1);
      cs_sched_params prm;
      setup_ok(&prm, ALGO_rabenseifner_reduce, &net.tt, n);
      ck_assert_int_eq(prm.nunits, pof2);
      counter c = count_all(ALGO_rabenseifner_reduce, &prm, false);
      uint64_t fold_halving = (uint64_t)rem * n + n * (uint64_t)(pof2 - 1);
      uint64_t lg = (uint64_t)ilog2(pof2);
      EXPECT(c.send_bytes >= fold_halving + (pof2 > 1 ? n - balanced(n, pof2, 0) : 0) &&
               c.send_bytes <= fold_halving + (n / 2 + (uint64_t)pof2 / 2) * lg,
             "rabenseifner p = %lld n = %llu: %llu bytes", (long long)p, (unsigned long long)n,
             (unsigned long long)c.send_bytes);
    }
}
END_TEST

/* ---- replay ---- */

typedef struct {
  int64_t sn, nps, cpn;
} shape;

static const shape SHAPES[] = {{1, 1, 1}, {2, 2, 2}, {3, 2, 2}, {4, 3, 2}, {5, 4, 1}, {8, 4, 4}, {6, 5, 3}};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

static void replay_ok(const cs_coll_algo *a, const cs_two_tier *net, uint64_t size)
{
  cs_sched_params prm;
  GError *err = NULL;
  if (!cs_sched_setup(&prm, a, net, size, &err)) {
    /* the only refusal allowed here: Rabenseifner on fewer bytes than pieces */
    EXPECT(a == ALGO_rabenseifner_reduce && size < (uint64_t)pow2_floor(net->p), "%s %s p = %lld: %s",
           cs_coll_name(a->coll), a->name, (long long)net->p, err->message);
    g_error_free(err);
    return;
  }
  cs_replay_stats st;
  bool ok = cs_replay(a, &prm, &st, &err);
  EXPECT(ok, "replay: %s", err ? err->message : "?");
  counter c = count_all(a, &prm, false);
  EXPECT(st.messages == c.sends && st.bytes == c.send_bytes, "%s %s p = %lld: replay counts %llu msgs %llu B, ops %llu %llu",
         cs_coll_name(a->coll), a->name, (long long)net->p, (unsigned long long)st.messages,
         (unsigned long long)st.bytes, (unsigned long long)c.sends, (unsigned long long)c.send_bytes);
  if (prm.nunits > 0 && cs_units_uniform(&prm) &&
      (a != ALGO_rabenseifner_reduce || size % (uint64_t)pow2_floor(net->p) == 0)) {
    expected e = formula(a, net->p, size);
    EXPECT(st.messages == e.messages && st.bytes == e.bytes, "%s %s p = %lld: replay %llu msgs, want %llu",
           cs_coll_name(a->coll), a->name, (long long)net->p, (unsigned long long)st.messages,
           (unsigned long long)e.messages);
  }
}

START_TEST(test_replay_shapes)
{
  const cs_coll_algo *a = algos_at(_i);
  static const uint64_t blocks[] = {64, 1000, 7};
  for (size_t s = 0; s < NSHAPES; s++) {
    cs_net net = cs_net_percs(SHAPES[s].sn, SHAPES[s].nps, SHAPES[s].cpn);
    for (size_t b = 0; b < 3; b++) {
      replay_ok(a, &net.tt, blocks[b]);                         /* per rank, or a small whole buffer */
      replay_ok(a, &net.tt, size_for(a, net.p, blocks[b]) + 3); /* never divides evenly */
    }
  }
}
END_TEST

START_TEST(test_replay_p_list)
{
  const cs_coll_algo *a = algos_at(_i);
  for (size_t k = 0; k < NP; k++) {
    cs_net net = cs_net_percs(P_LIST[k], 1, 1);
    replay_ok(a, &net.tt, size_for(a, net.p, 64));
    replay_ok(a, &net.tt, size_for(a, net.p, 7) + 5);
  }
}
END_TEST

/* Every p from 1 to 70: catches off-by-one in the non-power-of-two paths. */
START_TEST(test_replay_all_small_p)
{
  const cs_coll_algo *a = algos_at(_i);
  for (int64_t p = 1; p <= 70; p++) {
    cs_net net = cs_net_percs(1, p, 1);
    replay_ok(a, &net.tt, size_for(a, p, 16));
  }
}
END_TEST

/* ---- hand-checked op lists ---- */

typedef struct {
  cs_op_kind kind;
  int64_t peer, first, len;
} want_op;

static void expect_ops(const cs_coll_algo *a, int64_t p, uint64_t size, int64_t rank, const want_op *w, size_t nw)
{
  cs_net net = cs_net_percs(1, p, 1);
  cs_sched_params prm;
  setup_ok(&prm, a, &net.tt, size);
  cs_oplist o;
  cs_oplist_init(&o);
  a->ops(&prm, rank, &o);
  size_t i = 0;
  for (size_t k = 0; k < o.n; k++) {
    if (o.op[k].kind == CS_OP_LOOP)
      continue;
    EXPECT(i < nw, "%s %s p = %lld rank %lld: more ops than expected", cs_coll_name(a->coll), a->name, (long long)p,
           (long long)rank);
    const cs_op *op = &o.op[k];
    EXPECT(op->kind == w[i].kind && op->peer == w[i].peer &&
             cs_units_equal(op->units, cs_units_range(w[i].first, w[i].len)),
           "%s %s p = %lld rank %lld op %zu: kind %d peer %lld units [%lld,+%lld); want kind %d peer %lld [%lld,+%lld)",
           cs_coll_name(a->coll), a->name, (long long)p, (long long)rank, i, op->kind, (long long)op->peer,
           (long long)op->units.first, (long long)op->units.len, w[i].kind, (long long)w[i].peer,
           (long long)w[i].first, (long long)w[i].len);
    i++;
  }
  EXPECT(i == nw, "%s %s p = %lld rank %lld: %zu ops, want %zu", cs_coll_name(a->coll), a->name, (long long)p,
         (long long)rank, i, nw);
  cs_oplist_free(&o);
}

#define S CS_OP_SEND
#define R CS_OP_RECV
#define RR CS_OP_RECV_REDUCE
#define EXPECT_OPS(a, p, size, rank, ...)                                                                      \
  do {                                                                                                         \
    const want_op w_[] = {__VA_ARGS__};                                                                        \
    expect_ops(a, p, size, rank, w_, sizeof w_ / sizeof w_[0]);                                                \
  } while (0)

START_TEST(test_binomial_scatter_by_hand)
{
  const cs_coll_algo *a = ALGO_binomial_scatter;
  EXPECT_OPS(a, 8, 10, 0, {S, 4, 4, 4}, {S, 2, 2, 2}, {S, 1, 1, 1});
  EXPECT_OPS(a, 8, 10, 4, {R, 0, 4, 4}, {S, 6, 6, 2}, {S, 5, 5, 1});
  EXPECT_OPS(a, 8, 10, 7, {R, 6, 7, 1});
  EXPECT_OPS(a, 6, 10, 0, {S, 4, 4, 2}, {S, 2, 2, 2}, {S, 1, 1, 1});
  EXPECT_OPS(a, 6, 10, 4, {R, 0, 4, 2}, {S, 5, 5, 1});
  EXPECT_OPS(a, 5, 10, 4, {R, 0, 4, 1});
  cs_net net = cs_net_percs(1, 1, 1);
  cs_sched_params prm;
  setup_ok(&prm, a, &net.tt, 10);
  cs_oplist o;
  cs_oplist_init(&o);
  a->ops(&prm, 0, &o);
  ck_assert_int_eq(o.n, 0);
  cs_oplist_free(&o);
}
END_TEST

START_TEST(test_binomial_gather_by_hand)
{
  const cs_coll_algo *a = ALGO_binomial_gather;
  EXPECT_OPS(a, 8, 10, 0, {R, 1, 1, 1}, {R, 2, 2, 2}, {R, 4, 4, 4});
  EXPECT_OPS(a, 8, 10, 6, {R, 7, 7, 1}, {S, 4, 6, 2});
  EXPECT_OPS(a, 8, 10, 4, {R, 5, 5, 1}, {R, 6, 6, 2}, {S, 0, 4, 4});
  EXPECT_OPS(a, 6, 10, 4, {R, 5, 5, 1}, {S, 0, 4, 2});
  EXPECT_OPS(a, 7, 10, 6, {S, 4, 6, 1});
}
END_TEST

START_TEST(test_ring_by_hand)
{
  const cs_coll_algo *a = ALGO_ring_allgather;
  cs_net net = cs_net_percs(1, 4, 1);
  cs_sched_params prm;
  setup_ok(&prm, a, &net.tt, 10);
  cs_oplist o;
  cs_oplist_init(&o);
  a->ops(&prm, 1, &o);
  ck_assert_int_eq(o.n, 3);
  ck_assert_int_eq(o.op[0].kind, CS_OP_LOOP);
  ck_assert_int_eq(o.op[0].iterations, 3);
  /* expanded: (send 2 unit 1, recv 0 unit 0), (2: 0, 0: 3), (2: 3, 0: 2) */
  static const int64_t want[6][3] = {{S, 2, 1}, {R, 0, 0}, {S, 2, 0}, {R, 0, 3}, {S, 2, 3}, {R, 0, 2}};
  for (int64_t i = 0; i < 3; i++)
    for (int b = 0; b < 2; b++) {
      cs_op e = cs_op_at_iteration(&prm, &o.op[1 + b], i);
      const int64_t *w = want[2 * i + b];
      EXPECT(e.kind == (cs_op_kind)w[0] && e.peer == w[1] && cs_units_equal(e.units, cs_units_range(w[2], 1)),
             "ring p = 4 rank 1 iteration %lld op %d: kind %d peer %lld unit %lld", (long long)i, b, e.kind,
             (long long)e.peer, (long long)e.units.first);
      ck_assert_int_eq(e.tag, o.op[1 + b].tag + i);
    }
  cs_oplist_free(&o);
}
END_TEST

START_TEST(test_pairwise_by_hand)
{
  const cs_coll_algo *a = ALGO_pairwise_reduce_scatter;
  cs_net net = cs_net_percs(1, 4, 1);
  cs_sched_params prm;
  setup_ok(&prm, a, &net.tt, 10);
  cs_oplist o;
  cs_oplist_init(&o);
  a->ops(&prm, 1, &o);
  ck_assert_int_eq(o.n, 3);
  /* step i = 1..3: send block 1+i to 1+i, reduce block 1 from 1-i */
  static const int64_t want[6][3] = {{S, 2, 2}, {RR, 0, 1}, {S, 3, 3}, {RR, 3, 1}, {S, 0, 0}, {RR, 2, 1}};
  for (int64_t i = 0; i < 3; i++)
    for (int b = 0; b < 2; b++) {
      cs_op e = cs_op_at_iteration(&prm, &o.op[1 + b], i);
      const int64_t *w = want[2 * i + b];
      EXPECT(e.kind == (cs_op_kind)w[0] && e.peer == w[1] && cs_units_equal(e.units, cs_units_range(w[2], 1)),
             "pairwise p = 4 rank 1 iteration %lld op %d: kind %d peer %lld unit %lld", (long long)i, b, e.kind,
             (long long)e.peer, (long long)e.units.first);
    }
  cs_oplist_free(&o);
}
END_TEST

START_TEST(test_recursive_doubling_by_hand)
{
  const cs_coll_algo *a = ALGO_recursive_doubling_allgather;
  EXPECT_OPS(a, 8, 10, 5, {S, 4, 5, 1}, {R, 4, 4, 1}, {S, 7, 4, 2}, {R, 7, 6, 2}, {S, 1, 4, 4}, {R, 1, 0, 4});
  /* p = 6: in the last step ranks 2, 3 have no partner; 0 and 1 pass them
   * blocks 4, 5 they got from 4 and 5 */
  EXPECT_OPS(a, 6, 10, 0, {S, 1, 0, 1}, {R, 1, 1, 1}, {S, 2, 0, 2}, {R, 2, 2, 2}, {S, 4, 0, 4}, {R, 4, 4, 2},
             {S, 2, 4, 2});
  EXPECT_OPS(a, 6, 10, 2, {S, 3, 2, 1}, {R, 3, 3, 1}, {S, 0, 2, 2}, {R, 0, 0, 2}, {R, 0, 4, 2});
  EXPECT_OPS(a, 6, 10, 4, {S, 5, 4, 1}, {R, 5, 5, 1}, {S, 0, 4, 2}, {R, 0, 0, 4});
  /* p = 3: rank 2 has no partner in step 0; in step 1 rank 0 exchanges with it */
  EXPECT_OPS(a, 3, 10, 2, {S, 0, 2, 1}, {R, 0, 0, 2});
  EXPECT_OPS(a, 3, 10, 1, {S, 0, 1, 1}, {R, 0, 0, 1}, {R, 0, 2, 1});
}
END_TEST

START_TEST(test_rabenseifner_by_hand)
{
  const cs_coll_algo *a = ALGO_rabenseifner_reduce;
  /* p = 6: pof2 = 4, rem = 2; ranks 1, 3 fold into 0, 2; new ranks
   * 0, 2, 4, 5 -> 0, 1, 2, 3; four pieces */
  EXPECT_OPS(a, 6, 400, 0, {RR, 1, 0, 4}, {S, 2, 2, 2}, {RR, 2, 0, 2}, {S, 4, 1, 1}, {RR, 4, 0, 1}, {R, 4, 1, 1},
             {R, 2, 2, 2});
  EXPECT_OPS(a, 6, 400, 1, {S, 0, 0, 4});
  EXPECT_OPS(a, 6, 400, 5, {S, 4, 0, 2}, {RR, 4, 2, 2}, {S, 2, 2, 1}, {RR, 2, 3, 1}, {S, 2, 3, 1});
  EXPECT_OPS(a, 6, 400, 2, {RR, 3, 0, 4}, {S, 0, 0, 2}, {RR, 0, 2, 2}, {S, 5, 3, 1}, {RR, 5, 2, 1}, {R, 5, 3, 1},
             {S, 0, 2, 2});
  /* p = 8, rank 6 = 110b: keeps 0..3 (bit 0 clear), then 2..3, then 3 (the
   * bit-reversal of 6), and sends piece 3 to 2 */
  EXPECT_OPS(a, 8, 800, 6, {S, 7, 4, 4}, {RR, 7, 0, 4}, {S, 4, 0, 2}, {RR, 4, 2, 2}, {S, 2, 2, 1}, {RR, 2, 3, 1},
             {S, 2, 3, 1});
}
END_TEST

START_TEST(test_vandegeijn_by_hand)
{
  const cs_coll_algo *a = ALGO_vandegeijn_bcast;
  cs_net net = cs_net_percs(1, 8, 1);
  cs_sched_params prm;
  setup_ok(&prm, a, &net.tt, 800);
  cs_oplist o;
  cs_oplist_init(&o);
  a->ops(&prm, 4, &o);
  /* scatter: from 0 chunks 4..7, to 6 chunks 6..7, to 5 chunk 5; ring loop */
  ck_assert_int_eq(o.n, 6);
  ck_assert(o.op[0].kind == CS_OP_RECV && o.op[0].peer == 0 && cs_units_equal(o.op[0].units, cs_units_range(4, 4)));
  ck_assert(o.op[1].kind == CS_OP_SEND && o.op[1].peer == 6 && cs_units_equal(o.op[1].units, cs_units_range(6, 2)));
  ck_assert(o.op[2].kind == CS_OP_SEND && o.op[2].peer == 5 && cs_units_equal(o.op[2].units, cs_units_range(5, 1)));
  ck_assert(o.op[3].kind == CS_OP_LOOP && o.op[3].iterations == 7 && o.op[3].body == 2);
  ck_assert(o.op[4].kind == CS_OP_SEND && o.op[4].peer == 5 && cs_units_equal(o.op[4].units, cs_units_range(4, 1)));
  ck_assert(o.op[5].kind == CS_OP_RECV && o.op[5].peer == 3 && cs_units_equal(o.op[5].units, cs_units_range(3, 1)));
  cs_oplist_free(&o);
}
END_TEST

/* ---- scale and refusals ---- */

START_TEST(test_million_ranks_stay_short)
{
  cs_net net = cs_net_percs(64, 16, 1024); /* p = 2^20 */
  const cs_coll_algo *short_ones[] = {ALGO_ring_allgather, ALGO_pairwise_reduce_scatter};
  for (size_t k = 0; k < 2; k++) {
    cs_sched_params prm;
    setup_ok(&prm, short_ones[k], &net.tt, 65536);
    cs_oplist o;
    cs_oplist_init(&o);
    for (int64_t r = 0; r < net.p; r += 4099) {
      cs_oplist_clear(&o);
      short_ones[k]->ops(&prm, r, &o);
      ck_assert_int_eq(o.n, 3);
      ck_assert_int_eq(o.op[0].iterations, net.p - 1);
    }
    cs_oplist_free(&o);
  }
  cs_sched_params prm;
  setup_ok(&prm, ALGO_vandegeijn_bcast, &net.tt, (uint64_t)1 << 30);
  cs_oplist o;
  cs_oplist_init(&o);
  ALGO_vandegeijn_bcast->ops(&prm, 0, &o);
  ck_assert_int_le(o.n, 20 + 3);
  cs_oplist_free(&o);
}
END_TEST

START_TEST(test_rabenseifner_refuses_fewer_bytes_than_pieces)
{
  cs_net net = cs_net_percs(3, 2, 2); /* p = 12, pof2 = 8 */
  cs_sched_params prm;
  GError *err = NULL;
  ck_assert(!cs_sched_setup(&prm, ALGO_rabenseifner_reduce, &net.tt, 7, &err));
  ck_assert_ptr_nonnull(err);
  ck_assert_ptr_nonnull(strstr(err->message, "pof2 = 8"));
  ck_assert_ptr_nonnull(strstr(err->message, "p = 12"));
  ck_assert_ptr_nonnull(strstr(err->message, "bytes = 7"));
  g_error_free(err);
  err = NULL;
  ck_assert(cs_sched_setup(&prm, ALGO_rabenseifner_reduce, &net.tt, 8, &err));
  ck_assert_int_eq(prm.nunits, 8);
}
END_TEST

/* Issue 30's rooted algorithms from every root: the replay (which starts
 * the data at prm->root) accepts them, with the same counts as from 0. */
START_TEST(test_replay_other_roots)
{
  const cs_coll_algo *rooted[] = {ALGO_binomial_bcast, ALGO_scatter_rdb_bcast, ALGO_pipeline_bcast,
                                  ALGO_chain_bcast,    ALGO_bintree_bcast,     ALGO_binomial_reduce,
                                  ALGO_linear_scatter, ALGO_linear_gather,     ALGO_binomial_scatter,
                                  ALGO_binomial_gather};
  static const int64_t ps[] = {2, 3, 6, 7, 12, 13, 16};
  for (size_t i = 0; i < G_N_ELEMENTS(rooted); i++)
    for (size_t k = 0; k < G_N_ELEMENTS(ps); k++)
      for (int64_t root = 1; root < ps[k]; root += 2) {
        const cs_coll_algo *a = rooted[i];
        cs_net net = cs_net_percs(ps[k], 1, 1);
        cs_sched_params prm;
        setup_ok(&prm, a, &net.tt, size_for(a, ps[k], 7) + 3);
        counter from0 = count_all(a, &prm, false);
        prm.root = root;
        GError *err = NULL;
        cs_replay_stats st;
        EXPECT(cs_replay(a, &prm, &st, &err), "%s %s p = %lld root %lld: %s", cs_coll_name(a->coll), a->name,
               (long long)ps[k], (long long)root, err ? err->message : "?");
        counter c = count_all(a, &prm, true);
        EXPECT(st.messages == from0.sends && c.sends == from0.sends && !c.tag_clash, "%s %s root %lld: %llu messages",
               cs_coll_name(a->coll), a->name, (long long)root, (unsigned long long)st.messages);
      }
}
END_TEST

/* The segmented broadcasts: S = ceil(n / segment) segments, (p-1) S
 * messages, each rank's list one loop long whatever S; the replay accepts
 * them; beyond 2^30 segments the plan refuses, naming the limit. */
START_TEST(test_segmented_bcasts)
{
  const cs_coll_algo *seg[] = {ALGO_pipeline_bcast, ALGO_chain_bcast, ALGO_bintree_bcast};
  static const int64_t ps[] = {1, 2, 5, 6, 11, 16, 33};
  static const uint64_t segments[][2] = {{1000, 100}, {1000, 64}, {1000, 1000}, {1000, 5000}, {7, 1}};
  for (size_t i = 0; i < G_N_ELEMENTS(seg); i++)
    for (size_t k = 0; k < G_N_ELEMENTS(ps); k++)
      for (size_t z = 0; z < G_N_ELEMENTS(segments); z++) {
        cs_net net = cs_net_percs(ps[k], 1, 1);
        cs_sched_params prm;
        GError *err = NULL;
        uint64_t n = segments[z][0], sz = segments[z][1], S = (n + sz - 1) / sz;
        EXPECT(cs_sched_setup_segment(&prm, seg[i], &net.tt, n, NULL, sz, &err), "%s", err ? err->message : "?");
        EXPECT(prm.nunits == (int64_t)S, "%s: %lld segments, want %llu", seg[i]->name, (long long)prm.nunits,
               (unsigned long long)S);
        cs_replay_stats st;
        EXPECT(cs_replay(seg[i], &prm, &st, &err), "%s p = %lld: %s", seg[i]->name, (long long)ps[k],
               err ? err->message : "?");
        EXPECT(st.messages == (uint64_t)(ps[k] - 1) * S && st.bytes == (uint64_t)(ps[k] - 1) * n,
               "%s p = %lld S = %llu: %llu messages", seg[i]->name, (long long)ps[k], (unsigned long long)S,
               (unsigned long long)st.messages);
        cs_oplist o;
        cs_oplist_init(&o);
        seg[i]->ops(&prm, 0, &o);
        EXPECT(o.n <= 5, "%s: the root's list has %zu ops", seg[i]->name, o.n);
        cs_oplist_free(&o);
      }
  cs_net net = cs_net_percs(2, 1, 1);
  cs_sched_params prm;
  GError *err = NULL;
  ck_assert(!cs_sched_setup_segment(&prm, ALGO_pipeline_bcast, &net.tt, (uint64_t)1 << 40, NULL, 512, &err));
  ck_assert_ptr_nonnull(strstr(err->message, "2^30"));
  g_error_free(err);
}
END_TEST

/* MPICH's binomial broadcast on PERCS 64,16,16 (16,384 ranks): p - 1 =
 * 16,383 messages of the 8-byte buffer. */
START_TEST(test_binomial_bcast_16384)
{
  cs_net net = cs_net_percs(64, 16, 16);
  cs_sched_params prm;
  setup_ok(&prm, ALGO_binomial_bcast, &net.tt, 8);
  counter c = count_all(ALGO_binomial_bcast, &prm, false);
  ck_assert_uint_eq(c.sends, 16383);
  ck_assert_uint_eq(c.send_bytes, 16383 * 8);
}
END_TEST

/* Bruck on p = 6 by hand (MPICH's MPIR_Allgather_intra_brucks): rank 2
 * sends block 2 to 1, blocks 2-3 to 0, blocks 2-3 (p - 4 = 2) to 4. */
START_TEST(test_bruck_by_hand)
{
  cs_net net = cs_net_percs(6, 1, 1);
  cs_sched_params prm;
  setup_ok(&prm, ALGO_bruck_allgather, &net.tt, 10);
  cs_oplist o;
  cs_oplist_init(&o);
  ALGO_bruck_allgather->ops(&prm, 2, &o);
  ck_assert_uint_eq(o.n, 6);
  int64_t to[] = {1, 0, 4}, from[] = {3, 4, 0}, count[] = {1, 2, 2}, first_in[] = {3, 4, 0};
  for (int j = 0; j < 3; j++) {
    ck_assert(o.op[2 * j].kind == CS_OP_SEND && o.op[2 * j].peer == to[j]);
    ck_assert(cs_units_equal(o.op[2 * j].units, cs_units_range(2, count[j])));
    ck_assert(o.op[2 * j + 1].kind == CS_OP_RECV && o.op[2 * j + 1].peer == from[j]);
    ck_assert(cs_units_equal(o.op[2 * j + 1].units, cs_units_range(first_in[j], count[j])));
  }
  cs_oplist_free(&o);
}
END_TEST

static Suite *oblivious_suite(void)
{
  Suite *s = suite_create("oblivious");
  TCase *tc = tcase_create("counts");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_counts_match_formulas, 0, NALGOS);
  tcase_add_test(tc, test_vandegeijn_uneven_bytes);
  tcase_add_test(tc, test_rabenseifner_uneven_bytes);
  suite_add_tcase(s, tc);

  tc = tcase_create("replay");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_replay_shapes, 0, NALGOS);
  tcase_add_loop_test(tc, test_replay_p_list, 0, NALGOS);
  tcase_add_loop_test(tc, test_replay_all_small_p, 0, NALGOS);
  tcase_add_test(tc, test_replay_other_roots);
  tcase_add_test(tc, test_segmented_bcasts);
  suite_add_tcase(s, tc);

  tc = tcase_create("by-hand");
  tcase_add_test(tc, test_binomial_scatter_by_hand);
  tcase_add_test(tc, test_binomial_gather_by_hand);
  tcase_add_test(tc, test_ring_by_hand);
  tcase_add_test(tc, test_pairwise_by_hand);
  tcase_add_test(tc, test_recursive_doubling_by_hand);
  tcase_add_test(tc, test_rabenseifner_by_hand);
  tcase_add_test(tc, test_vandegeijn_by_hand);
  tcase_add_test(tc, test_bruck_by_hand);
  suite_add_tcase(s, tc);

  tc = tcase_create("limits");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_million_ranks_stay_short);
  tcase_add_test(tc, test_rabenseifner_refuses_fewer_bytes_than_pieces);
  tcase_add_test(tc, test_binomial_bcast_16384);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(oblivious_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
