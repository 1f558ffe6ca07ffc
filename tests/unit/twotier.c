/* Tests of the two-tier SDTA schedules (algorithms/collectives/twotier_*.c,
 * seed 001 Section 5), every algorithm and named variant:
 *  - the semantic replay (sim/checks/replay.c) succeeds on many PERCS shapes (ones,
 *    sn < nps, sn > nps, non-powers of two) and on Dragonfly wirings, with
 *    sizes that divide evenly and sizes that do not;
 *  - a rank that does nothing makes the replay fail (the check is not vacuous);
 *  - message and byte totals on small PERCS shapes equal formulas written
 *    here from the algorithms' descriptions;
 *  - ops per rank stay O(sn + nps + cpn) on large machines;
 *  - per-link bytes on percs:64,16,16 (routed here with the PERCS rule of
 *    Section 3) equal the predicted Table 3-5 cells. */
#include "sim/checks/replay.h"

#include "tests/lib/algos.h"
#include "platforms/two_tier_spec.h"

#include <check.h>
#include <stdlib.h>


/* The algorithms of this family, from the registry. */
static const cs_coll_algo *algos_at(size_t i)
{
  const cs_coll_algo *all[] = {
    ALGO_twotier_scatter,
    ALGO_twotier_scatter_direct,
    ALGO_twotier_gather,
    ALGO_twotier_gather_direct,
    ALGO_twotier_bcast_base,
    ALGO_twotier_bcast,
    ALGO_twotier_bcast_every,
    ALGO_twotier_bcast_missing,
    ALGO_twotier_allgather,
    ALGO_twotier_reduce_scatter,
    ALGO_twotier_reduce,
  };
  return all[i];
}
#define ALGOS_COUNT 11
#define NALGOS ALGOS_COUNT

static const int shapes[][3] = {{1, 1, 1}, {1, 4, 1}, {4, 1, 2}, {2, 2, 2},  {3, 2, 2}, {4, 4, 1},
                                {5, 3, 2}, {8, 4, 4}, {6, 4, 3}, {16, 4, 2}, {7, 8, 1}, {2, 5, 3},
                                {3, 7, 2}, {17, 4, 1}, {1, 3, 3}, {2, 1, 1}, {1, 1, 5}, {9, 3, 1}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static bool run(const cs_coll_algo *a, const cs_two_tier *net, uint64_t size, cs_replay_stats *st, char **why)
{
  cs_sched_params prm;
  GError *err = NULL;
  bool ok = cs_sched_setup(&prm, a, net, size, &err) && cs_replay(a, &prm, st, &err);
  if (!ok)
    *why = g_strdup_printf("%s %s on sn %lld nps %lld cpn %lld, size %llu: %s", cs_coll_name(a->coll), a->name,
                           (long long)net->sn, (long long)net->nps, (long long)net->cpn, (unsigned long long)size,
                           err->message);
  g_clear_error(&err);
  return ok;
}

static void expect_replay(const cs_coll_algo *a, const cs_two_tier *net, uint64_t size)
{
  char *why = NULL;
  cs_replay_stats st;
  if (!run(a, net, size, &st, &why))
    ck_abort_msg("%s", why);
}

/* ---- replay on many shapes ---- */

START_TEST(test_replay_percs_shapes)
{
  const cs_coll_algo *a = algos_at(_i);
  for (size_t s = 0; s < NSHAPES; s++) {
    cs_net net = cs_net_percs(shapes[s][0], shapes[s][1], shapes[s][2]);
    const uint64_t per_rank[] = {64, 7, 1}, whole[] = {1000, 13, 1};
    for (int k = 0; k < 3; k++)
      expect_replay(a, &net.tt, cs_coll_per_rank(a->coll) ? per_rank[k] : whole[k]);
  }
}
END_TEST

START_TEST(test_replay_dragonfly)
{
  const char *specs[] = {"dragonfly:5,2,2,1,2", "dragonfly:9,4,2,2,1", "dragonfly:7,3,2,2,2",
                         "dragonfly:3,2,1,2,3", "dragonfly:2,1,1,1,1", "dragonfly:4,3,1,1"};
  const cs_coll_algo *a = algos_at(_i);
  for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
    cs_net net;
    GError *err = NULL;
    if (!cs_net_parse(specs[s], &net, &err))
      ck_abort_msg("%s: %s", specs[s], err->message);
    expect_replay(a, &net.tt, cs_coll_per_rank(a->coll) ? 64 : 1000);
    expect_replay(a, &net.tt, cs_coll_per_rank(a->coll) ? 7 : 13);
  }
}
END_TEST

/* The algorithm under test with one rank doing nothing. */
static const cs_coll_algo *victim_algo;

static bool victim_plan(cs_sched_params *prm, GError **err) { return victim_algo->plan(prm, err); }

static void victim_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  victim_algo->ops(prm, rank, out);
  if (rank == prm->p - 1)
    out->n = 0;
}

START_TEST(test_replay_rejects_idle_rank)
{
  victim_algo = algos_at(_i);
  cs_coll_algo broken = {"broken", victim_algo->coll, "test", victim_plan, victim_ops,
                         victim_algo->needs_in_order, victim_algo->cost, victim_algo->cost_formula};
  const int idle_shapes[][3] = {{2, 2, 2}, {3, 2, 1}, {5, 3, 2}};
  for (size_t s = 0; s < 3; s++) {
    cs_net net = cs_net_percs(idle_shapes[s][0], idle_shapes[s][1], idle_shapes[s][2]);
    char *why = NULL;
    cs_replay_stats st;
    bool ok = run(&broken, &net.tt, 64, &st, &why);
    g_free(why);
    ck_assert_msg(!ok, "%s %s: the replay accepted a schedule whose last rank does nothing",
                  cs_coll_name(victim_algo->coll), victim_algo->name);
  }
}
END_TEST

/* ---- totals from formulas (PERCS) ---- */

typedef struct expected {
  uint64_t messages, bytes, internode;
} expected;

static cs_replay_stats stats_of(const cs_coll_algo *a, int64_t sn, int64_t nps, int64_t cpn, uint64_t size)
{
  cs_net net = cs_net_percs(sn, nps, cpn);
  cs_replay_stats st;
  char *why = NULL;
  if (!run(a, &net.tt, size, &st, &why))
    ck_abort_msg("%s", why);
  return st;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Scatter and gather: step 1 to the gateways (one message per gateway node),
 * L2, inside every supernode, inside every node. */
static expected scatter_expected(int64_t sn, int64_t nps, int64_t cpn, uint64_t block)
{
  int64_t S = nps * cpn, via_l1 = (sn - 1) - (sn - 1) / nps; /* supernodes t with t mod nps != 0 */
  uint64_t inter = block * (uint64_t)(S * via_l1 + S * (sn - 1) + cpn * sn * (nps - 1));
  uint64_t intra = block * (uint64_t)(sn * nps * (cpn - 1));
  uint64_t msgs = (uint64_t)(min64(nps - 1, sn - 1) + (sn - 1) + sn * (nps - 1) + sn * nps * (cpn - 1));
  return (expected){msgs, inter + intra, inter};
}

static void expect_totals(const cs_coll_algo *a, int64_t sn, int64_t nps, int64_t cpn, uint64_t size, expected e,
                          bool check_messages)
{
  cs_replay_stats st = stats_of(a, sn, nps, cpn, size);
  const char *n = cs_coll_name(a->coll);
  if (check_messages)
    ck_assert_msg(st.messages == e.messages, "%s %s (%lld,%lld,%lld): %llu messages, want %llu", n, a->name,
                  (long long)sn, (long long)nps, (long long)cpn, (unsigned long long)st.messages,
                  (unsigned long long)e.messages);
  ck_assert_msg(st.bytes == e.bytes, "%s %s (%lld,%lld,%lld): %llu bytes, want %llu", n, a->name, (long long)sn,
                (long long)nps, (long long)cpn, (unsigned long long)st.bytes, (unsigned long long)e.bytes);
  if (e.internode)
    ck_assert_msg(st.internode_bytes == e.internode, "%s %s (%lld,%lld,%lld): %llu bytes between nodes, want %llu",
                  n, a->name, (long long)sn, (long long)nps, (long long)cpn, (unsigned long long)st.internode_bytes,
                  (unsigned long long)e.internode);
}

static const int small[][3] = {{2, 2, 2}, {3, 2, 2}, {5, 3, 2}, {4, 4, 1}, {8, 4, 4}, {16, 4, 2}, {1, 4, 3}};

START_TEST(test_totals_scatter_gather)
{
  for (size_t s = 0; s < sizeof small / sizeof small[0]; s++) {
    int64_t sn = small[s][0], nps = small[s][1], cpn = small[s][2], p = sn * nps * cpn;
    expected e = scatter_expected(sn, nps, cpn, 64);
    expect_totals(ALGO_twotier_scatter, sn, nps, cpn, 64, e, true);
    expect_totals(ALGO_twotier_gather, sn, nps, cpn, 64, e, true);
    expected direct = {(uint64_t)(p - 1), 64 * (uint64_t)(p - 1), 0};
    expect_totals(ALGO_twotier_scatter_direct, sn, nps, cpn, 64, direct, true);
    expect_totals(ALGO_twotier_gather_direct, sn, nps, cpn, 64, direct, true);
  }
}
END_TEST

/* Base broadcast: every rank but the root receives the buffer exactly once. */
START_TEST(test_totals_bcast_base)
{
  for (size_t s = 0; s < sizeof small / sizeof small[0]; s++) {
    int64_t sn = small[s][0], nps = small[s][1], cpn = small[s][2], p = sn * nps * cpn;
    expected e = {(uint64_t)(p - 1), 1000 * (uint64_t)(p - 1), 1000 * (uint64_t)(sn * nps - 1)};
    expect_totals(ALGO_twotier_bcast_base, sn, nps, cpn, 1000, e, true);
  }
}
END_TEST

/* Chunked broadcast with sn > nps (every node of supernode 0 has an L2 link,
 * nps distinct seeds): chunk bytes C = N / nps. */
START_TEST(test_totals_bcast_chunked)
{
  const int sh[][3] = {{16, 4, 2}, {7, 4, 1}, {9, 8, 2}, {5, 2, 3}};
  for (size_t s = 0; s < 4; s++) {
    int64_t sn = sh[s][0], nps = sh[s][1], cpn = sh[s][2];
    uint64_t N = 96 * (uint64_t)nps, C = 96;
    int64_t step5_chunks = (sn - 1 - nps) * nps + nps * (nps - 1) + nps; /* non-seeds, seeds, supernode 0 */
    uint64_t inter = C * (uint64_t)((nps - 1) + nps + nps * (nps - 1) + nps * (sn - 1) + (nps - 1) * step5_chunks);
    expected e = {0, inter + N * (uint64_t)(sn * nps * (cpn - 1)), inter};
    expect_totals(ALGO_twotier_bcast, sn, nps, cpn, N, e, false);
  }
}
END_TEST

START_TEST(test_totals_allgather)
{
  for (size_t s = 0; s < sizeof small / sizeof small[0]; s++) {
    int64_t sn = small[s][0], nps = small[s][1], cpn = small[s][2], p = sn * nps * cpn, S = nps * cpn;
    uint64_t B = 64;
    uint64_t inter = B * (uint64_t)(sn * nps * (nps - 1) * cpn + sn * (sn - 1) * S + sn * (sn - 1) * S * (nps - 1));
    uint64_t intra = B * (uint64_t)(sn * nps * (cpn - 1) + sn * nps * (cpn - 1) * p);
    expected e = {0, inter + intra, inter};
    expect_totals(ALGO_twotier_allgather, sn, nps, cpn, B, e, false);
  }
}
END_TEST

/* Reductions on shapes with sn >= 2 nps: every node of every supernode
 * receives over L2, so all nps nodes hold a partial sum of their supernode's
 * part; nunits = p. */
START_TEST(test_totals_reductions)
{
  const int sh[][3] = {{8, 4, 4}, {16, 4, 2}, {6, 3, 1}, {4, 2, 3}};
  for (size_t s = 0; s < 4; s++) {
    int64_t sn = sh[s][0], nps = sh[s][1], cpn = sh[s][2], p = sn * nps * cpn, S = nps * cpn, q = p / cpn;
    uint64_t U = 8;
    int64_t in_node = sn * nps * (cpn * (cpn - 1) * q + (cpn - 1) * q);
    int64_t node_level = sn * (nps - 1) * sn * S, l2 = sn * (sn - 1) * S;
    /* reduce-scatter: then every node sends every other node its blocks, then cores */
    int64_t rs_units = in_node + node_level + l2 + sn * nps * (nps - 1) * cpn + sn * nps * (cpn - 1);
    int64_t rs_msgs = sn * nps * (cpn * (cpn - 1) + (cpn - 1)) + sn * nps * (nps - 1) + sn * (sn - 1) +
                      sn * nps * (nps - 1) + sn * nps * (cpn - 1);
    expect_totals(ALGO_twotier_reduce_scatter, sn, nps, cpn, U,
                  (expected){(uint64_t)rs_msgs, U * (uint64_t)rs_units, 0}, true);
    /* reduce: clique on the parts, slices to the collector, L2 to supernode 0, forward to the root */
    int64_t to_root = (sn - 1) - (sn - 1) / nps;
    int64_t r_units = in_node + node_level + l2 + sn * nps * (nps - 1) * cpn + sn * (nps - 1) * cpn + (sn - 1) * S +
                      to_root * S;
    int64_t r_msgs = sn * nps * (cpn * (cpn - 1) + (cpn - 1)) + sn * nps * (nps - 1) + sn * (sn - 1) +
                     sn * nps * (nps - 1) + sn * (nps - 1) + (sn - 1) + min64(nps - 1, sn - 1);
    expect_totals(ALGO_twotier_reduce, sn, nps, cpn, U * (uint64_t)p,
                  (expected){(uint64_t)r_msgs, U * (uint64_t)r_units, 0}, true);
  }
}
END_TEST

/* ---- ops per rank ---- */

START_TEST(test_ops_per_rank_bounded)
{
  const int big[][3] = {{64, 16, 16}, {300, 8, 2}, {4, 200, 3}};
  const cs_coll_algo *a = algos_at(_i);
  for (size_t s = 0; s < 3; s++) {
    cs_net net = cs_net_percs(big[s][0], big[s][1], big[s][2]);
    cs_sched_params prm;
    GError *err = NULL;
    if (!cs_sched_setup(&prm, a, &net.tt, 4096, &err))
      ck_abort_msg("%s", err->message);
    size_t bound = (size_t)(2 * (net.sn + net.nps + net.cpn) + 16);
    cs_oplist o;
    cs_oplist_init(&o);
    for (int64_t r = 0; r < net.p; r += 1 + (r % 7)) {
      cs_oplist_clear(&o);
      a->ops(&prm, r, &o);
      ck_assert_msg(o.n <= bound, "%s %s, rank %lld of (%lld,%lld,%lld): %zu ops > %zu", cs_coll_name(a->coll),
                    a->name, (long long)r, (long long)net.sn, (long long)net.nps, (long long)net.cpn, o.n, bound);
    }
    cs_oplist_free(&o);
  }
}
END_TEST

/* ---- per-link bytes on percs:64,16,16 ---- */

typedef struct link_load {
  const cs_sched_params *prm;
  int64_t rank;
  uint64_t *l1, *l2;   /* bytes per link */
  uint64_t *l1m, *l2m; /* messages per link */
} link_load;

static void charge(uint64_t *bytes, uint64_t *msgs, int64_t link, uint64_t b)
{
  bytes[link] += b;
  msgs[link]++;
}

/* PERCS routing: one L1 hop inside a supernode; else L1 to the gateway node
 * (S2 mod nps), L2, L1 from the landing node (S1 mod nps). */
static bool route_send(const cs_op *op, void *user)
{
  link_load *L = user;
  if (op->kind != CS_OP_SEND)
    return true;
  const cs_two_tier *n = L->prm->tt;
  int64_t N = n->nps, a = L->rank / n->cpn, b = op->peer / n->cpn;
  if (a == b)
    return true;
  uint64_t bytes = cs_units_bytes(L->prm, op->units);
  int64_t sa = a / N, sb = b / N, na = a % N, nb = b % N;
  if (sa == sb) {
    charge(L->l1, L->l1m, (sa * N + na) * N + nb, bytes);
    return true;
  }
  int64_t gw = sb % N, land = sa % N;
  if (na != gw)
    charge(L->l1, L->l1m, (sa * N + na) * N + gw, bytes);
  charge(L->l2, L->l2m, sa * n->sn + sb, bytes);
  if (land != nb)
    charge(L->l1, L->l1m, (sb * N + land) * N + nb, bytes);
  return true;
}

typedef struct cells {
  int64_t l1_used;
  uint64_t l1_min, l1_max; /* MiB */
  int64_t l2_used;
  uint64_t l2_min, l2_max;
} cells;

static void tier(const uint64_t *bytes, const uint64_t *msgs, int64_t n, int64_t *used, uint64_t *lo, uint64_t *hi)
{
  *used = 0;
  *lo = UINT64_MAX;
  *hi = 0;
  for (int64_t i = 0; i < n; i++)
    if (msgs[i]) {
      (*used)++;
      *lo = bytes[i] < *lo ? bytes[i] : *lo;
      *hi = bytes[i] > *hi ? bytes[i] : *hi;
    }
}

static cells paper_machine_cells(const cs_coll_algo *a)
{
  cs_net net = cs_net_percs(64, 16, 16);
  int64_t n1 = net.sn * net.nps * net.nps, n2 = net.sn * net.sn;
  cs_sched_params prm;
  GError *err = NULL;
  if (!cs_sched_setup(&prm, a, &net.tt, cs_coll_per_rank(a->coll) ? 65536 : (uint64_t)1 << 30, &err))
    ck_abort_msg("%s", err->message);
  link_load L = {&prm, 0, g_new0(uint64_t, n1), g_new0(uint64_t, n2), g_new0(uint64_t, n1), g_new0(uint64_t, n2)};
  cs_oplist o;
  cs_oplist_init(&o);
  for (L.rank = 0; L.rank < net.p; L.rank++) {
    cs_oplist_clear(&o);
    a->ops(&prm, L.rank, &o);
    cs_oplist_expand(&prm, &o, route_send, &L);
  }
  cells c;
  tier(L.l1, L.l1m, n1, &c.l1_used, &c.l1_min, &c.l1_max);
  tier(L.l2, L.l2m, n2, &c.l2_used, &c.l2_min, &c.l2_max);
  c.l1_min >>= 20, c.l1_max >>= 20, c.l2_min >>= 20, c.l2_max >>= 20;
  cs_oplist_free(&o);
  g_free(L.l1), g_free(L.l2), g_free(L.l1m), g_free(L.l2m);
  return c;
}

static void expect_cells(const cs_coll_algo *a, cells want)
{
  cells got = paper_machine_cells(a);
  ck_assert_msg(got.l1_used == want.l1_used && got.l1_min == want.l1_min && got.l1_max == want.l1_max &&
                    got.l2_used == want.l2_used && got.l2_min == want.l2_min && got.l2_max == want.l2_max,
                "%s %s: L1 %lld links %llu..%llu MiB, L2 %lld links %llu..%llu MiB", cs_coll_name(a->coll), a->name,
                (long long)got.l1_used, (unsigned long long)got.l1_min, (unsigned long long)got.l1_max,
                (long long)got.l2_used, (unsigned long long)got.l2_min, (unsigned long long)got.l2_max);
}

/* Paper (Tables 3-5) in the comments where it differs. */
START_TEST(test_paper_machine_link_cells)
{
  cells scatter = {960, 1, 65, 63, 16, 16}; /* paper: L1 max 64, L2 min 1 */
  expect_cells(ALGO_twotier_scatter, scatter);
  expect_cells(ALGO_twotier_scatter_direct, scatter);
  expect_cells(ALGO_twotier_gather, scatter);
  expect_cells(ALGO_twotier_gather_direct, scatter);
  expect_cells(ALGO_twotier_bcast_base, (cells){960, 1024, 1024, 63, 1024, 1024});
  expect_cells(ALGO_twotier_bcast, (cells){15135, 64, 128, 1024, 64, 64});       /* paper: 15360, 3937 links */
  expect_cells(ALGO_twotier_bcast_every, (cells){15360, 64, 128, 4032, 64, 64}); /* paper: 3937 L2 links */
  expect_cells(ALGO_twotier_bcast_missing, (cells){15120, 64, 128, 1008, 64, 64});
  expect_cells(ALGO_twotier_allgather, (cells){15360, 49, 65, 4032, 16, 16}); /* paper: L1 min 65 */
  expect_cells(ALGO_twotier_reduce_scatter, (cells){15360, 65, 65, 4032, 16, 16});
  expect_cells(ALGO_twotier_reduce, (cells){15360, 65, 130, 4032, 16, 32}); /* paper: L1 min 66 */
}
END_TEST

static Suite *twotier_suite(void)
{
  Suite *s = suite_create("twotier");
  TCase *tc = tcase_create("replay");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_replay_percs_shapes, 0, NALGOS);
  tcase_add_loop_test(tc, test_replay_dragonfly, 0, NALGOS);
  tcase_add_loop_test(tc, test_replay_rejects_idle_rank, 0, NALGOS);
  suite_add_tcase(s, tc);
  TCase *tt = tcase_create("totals");
  tcase_set_timeout(tt, 300);
  tcase_add_test(tt, test_totals_scatter_gather);
  tcase_add_test(tt, test_totals_bcast_base);
  tcase_add_test(tt, test_totals_bcast_chunked);
  tcase_add_test(tt, test_totals_allgather);
  tcase_add_test(tt, test_totals_reductions);
  suite_add_tcase(s, tt);
  TCase *ts = tcase_create("scale");
  tcase_set_timeout(ts, 300);
  tcase_add_loop_test(ts, test_ops_per_rank_bounded, 0, NALGOS);
  tcase_add_test(ts, test_paper_machine_link_cells);
  suite_add_tcase(s, ts);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(twotier_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
