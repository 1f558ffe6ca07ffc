/* The semantic check (sim/checks/replay.c) must catch broken schedules.  Small
 * schedules written here, correct and deliberately broken:
 *  - a ring allgather (correct) and one that stops a step early;
 *  - a linear reduce (correct), one that adds a contribution twice, and one
 *    that forgets a rank;
 *  - two messages with one (sender, receiver, tag);
 *  - a send of data the sender does not hold, a receive naming other units
 *    than the send, and a receive that is never matched (deadlock);
 *  - unit sizes and byte sums with and without remainders;
 *  - every algorithm of the registry on shapes and sizes of every kind. */
#include "sim/checks/replay.h"

#include "tests/lib/algos.h"
#include "tests/lib/platform_specs.h"
#include "platforms/two_tier_net.h"

#include <check.h>

static int broken; /* which defect the test schedules carry */

static bool plan_per_rank(cs_sched_params *prm, GError **err)
{
  (void)err;
  prm->nunits = prm->p;
  return true;
}

/* Ring allgather: step i sends block (r - i) to r + 1. */
static void ring_ops(const cs_sched_params *prm, int64_t r, cs_oplist *o)
{
  int64_t p = prm->p, steps = p - 1 - (broken == 1);
  cs_ops_loop(o, steps, 2);
  cs_ops_send(o, (r + 1) % p, 0, cs_units_block(prm, r));
  cs_ops_step(o, 0, -1);
  cs_ops_recv(o, (r + p - 1) % p, 0, cs_units_block(prm, r - 1));
  cs_ops_step(o, 0, -1);
}

static const cs_coll_algo ring = {"ring", CS_COLL_ALLGATHER, "test", plan_per_rank, ring_ops, false, NULL, NULL};

/* Linear reduce to 0 of one unit. */
static bool plan_one(cs_sched_params *prm, GError **err)
{
  (void)err;
  prm->nunits = 1;
  return true;
}

static void linear_reduce_ops(const cs_sched_params *prm, int64_t r, cs_oplist *o)
{
  cs_units all = cs_units_all(prm);
  if (r != 0) {
    if (!(broken == 3 && r == 1))
      cs_ops_send(o, 0, 0, all);
    if (broken == 2 && r == 1)
      cs_ops_send(o, 0, 1, all);
    return;
  }
  for (int64_t s = 1; s < prm->p; s++)
    if (!(broken == 3 && s == 1))
      cs_ops_recv_reduce(o, s, 0, all);
  if (broken == 2)
    cs_ops_recv_reduce(o, 1, 1, all);
}

static const cs_coll_algo linear_reduce = {"linear", CS_COLL_REDUCE, "test", plan_one, linear_reduce_ops, false,
                                           NULL, NULL};

/* Scatter by direct sends, with defects 4 (send what one does not hold),
 * 5 (receive names other units), 6 (receive never matched). */
static void direct_scatter_ops(const cs_sched_params *prm, int64_t r, cs_oplist *o)
{
  if (r == 0) {
    for (int64_t d = 1; d < prm->p; d++)
      cs_ops_send(o, d, 0, cs_units_block(prm, d));
    if (broken == 7)
      cs_ops_send(o, 1, 0, cs_units_block(prm, 1));
    return;
  }
  if (broken == 4 && r == 1)
    cs_ops_send(o, 2, 9, cs_units_block(prm, 3));
  cs_ops_recv(o, 0, 0, cs_units_block(prm, broken == 5 && r == 2 ? 3 : r));
  if (broken == 6 && r == 2)
    cs_ops_recv(o, 1, 5, cs_units_block(prm, r));
  if (broken == 7 && r == 1)
    cs_ops_recv(o, 0, 0, cs_units_block(prm, r));
}

static const cs_coll_algo direct_scatter = {"direct", CS_COLL_SCATTER, "test", plan_per_rank,
                                            direct_scatter_ops, false, NULL, NULL};

static bool run(const cs_coll_algo *a, int64_t sn, int64_t nps, int64_t cpn, uint64_t size, cs_replay_stats *st,
                GError **err)
{
  cs_net net = cs_net_percs(sn, nps, cpn);
  cs_sched_params prm;
  ck_assert(cs_sched_setup(&prm, a, &net.tt, size, err));
  return cs_replay(a, &prm, st, err);
}

START_TEST(ring_correct)
{
  broken = 0;
  int64_t shapes[][3] = {{1, 1, 1}, {1, 1, 2}, {2, 3, 1}, {3, 2, 2}, {5, 4, 3}};
  for (size_t i = 0; i < G_N_ELEMENTS(shapes); i++) {
    GError *e = NULL;
    cs_replay_stats st;
    ck_assert_msg(run(&ring, shapes[i][0], shapes[i][1], shapes[i][2], 7, &st, &e), "%s", e ? e->message : "");
    int64_t p = shapes[i][0] * shapes[i][1] * shapes[i][2];
    ck_assert_uint_eq(st.messages, (uint64_t)(p * (p - 1)));
    ck_assert_uint_eq(st.bytes, (uint64_t)(p * (p - 1) * 7));
  }
}
END_TEST

START_TEST(ring_short_fails)
{
  broken = 1;
  GError *e = NULL;
  ck_assert(!run(&ring, 2, 2, 2, 8, NULL, &e));
  ck_assert_ptr_nonnull(strstr(e->message, "ends without unit"));
  g_error_free(e);
}
END_TEST

START_TEST(reduce_correct_and_broken)
{
  GError *e = NULL;
  broken = 0;
  ck_assert_msg(run(&linear_reduce, 2, 3, 2, 100, NULL, &e), "%s", e ? e->message : "");
  broken = 2;
  ck_assert(!run(&linear_reduce, 2, 3, 2, 100, NULL, &e));
  ck_assert_ptr_nonnull(strstr(e->message, "counted twice"));
  g_clear_error(&e);
  broken = 3;
  ck_assert(!run(&linear_reduce, 2, 3, 2, 100, NULL, &e));
  ck_assert_ptr_nonnull(strstr(e->message, "contributions"));
  g_clear_error(&e);
}
END_TEST

START_TEST(scatter_defects)
{
  GError *e = NULL;
  broken = 0;
  ck_assert_msg(run(&direct_scatter, 2, 2, 1, 10, NULL, &e), "%s", e ? e->message : "");
  const char *expect[] = {NULL, NULL, NULL, NULL, "does not hold", "carries", "never sent", "already used"};
  for (broken = 4; broken <= 7; broken++) {
    ck_assert(!run(&direct_scatter, 2, 2, 1, 10, NULL, &e));
    ck_assert_msg(strstr(e->message, expect[broken]) != NULL, "defect %d: %s", broken, e->message);
    g_clear_error(&e);
  }
}
END_TEST

/* Every algorithm of the registry, whatever its family (the script ones with
 * a LAM tree), on shapes powers of two or not, sizes dividing evenly or not,
 * on PERCS shapes and a small platform of every platform family: the replay
 * accepts it; an algorithm refuses a shape only for a reason test_setup
 * accepts. */
static void replay_every_algorithm(const cs_two_tier *tt, const uint64_t *sizes, size_t nsizes)
{
  for (size_t i = 0; i < cs_coll_algo_count(); i++)
    for (size_t z = 0; z < nsizes; z++) {
      const cs_coll_algo *a = cs_coll_algo_at(i);
      cs_sched_params prm;
      GError *e = NULL;
      if (test_setup(&prm, a, tt, sizes[z]))
        ck_assert_msg(cs_replay(a, &prm, NULL, &e), "%s", e ? e->message : "");
    }
}

START_TEST(every_registered_algorithm)
{
  int64_t shapes[][3] = {{1, 1, 1}, {2, 2, 2}, {3, 2, 2}, {5, 3, 2}, {4, 4, 4}, {6, 4, 3}, {17, 4, 1}};
  uint64_t sizes[] = {1, 7, 64, 1000};
  for (size_t s = 0; s < G_N_ELEMENTS(shapes); s++) {
    cs_net net = cs_net_percs(shapes[s][0], shapes[s][1], shapes[s][2]);
    replay_every_algorithm(&net.tt, sizes, G_N_ELEMENTS(sizes));
  }
  test_platforms_cover_registry();
  for (size_t s = 0; s < N_TEST_PLATFORMS; s++) {
    cs_two_tier tt = test_platform_view(TEST_PLATFORMS[s]);
    replay_every_algorithm(&tt, sizes, G_N_ELEMENTS(sizes));
  }
}
END_TEST

START_TEST(unit_bytes)
{
  cs_net net = cs_net_percs(1, 3, 1);
  cs_sched_params prm = {.coll = CS_COLL_BCAST, .tt = &net.tt, .p = 3, .bytes = 10, .nunits = 4};
  /* 10 bytes over 4 units: 3, 3, 2, 2 */
  ck_assert_uint_eq(cs_unit_bytes(&prm, 0), 3);
  ck_assert_uint_eq(cs_unit_bytes(&prm, 3), 2);
  ck_assert_uint_eq(cs_units_bytes(&prm, cs_units_range(1, 2)), 5);
  ck_assert_uint_eq(cs_units_bytes(&prm, cs_units_range(3, 2)), 5); /* wraps: 2 + 3 */
  ck_assert_uint_eq(cs_units_bytes(&prm, cs_units_strided(0, 1, 2, 2)), 5); /* 3 + 2 */
  ck_assert_uint_eq(cs_units_bytes(&prm, cs_units_all(&prm)), 10);
  cs_sched_params blk = {.coll = CS_COLL_SCATTER, .tt = &net.tt, .p = 3, .block = 5, .bytes = 15, .nunits = 6};
  /* each block of 5 bytes over 2 units: 3, 2 */
  ck_assert_uint_eq(cs_unit_bytes(&blk, 2), 3);
  ck_assert_uint_eq(cs_unit_bytes(&blk, 5), 2);
  ck_assert_uint_eq(cs_units_bytes(&blk, cs_units_block(&blk, 1)), 5);
  ck_assert_uint_eq(cs_units_bytes(&blk, cs_units_range(1, 4)), 10);
  ck_assert(cs_units_equal(cs_units_strided(4, 2, 2, 3), cs_units_range(4, 6)));
  ck_assert(!cs_units_equal(cs_units_range(0, 2), cs_units_range(1, 2)));
}
END_TEST

/* cs_loop_op_bytes (the O(1) sum over a loop's iterations) equals the sum
 * of each iteration's bytes, and cs_units_largest_bytes bounds each, on
 * random sizes that do not divide evenly, both spreads, steps of either
 * sign, tiling and overlapping windows, strided sets. */
START_TEST(loop_bytes_equal_iteration_sums)
{
  cs_net net = cs_net_percs(1, 7, 1);
  GRand *r = g_rand_new_with_seed(20261128);
  for (int t = 0; t < 20000; t++) {
    int64_t p = 7, m = g_rand_int_range(r, 1, 4);
    bool per_rank = g_rand_boolean(r);
    uint64_t size = (uint64_t)g_rand_int_range(r, 0, 200);
    cs_sched_params prm = {.coll = per_rank ? CS_COLL_SCATTER : CS_COLL_BCAST, .tt = &net.tt, .p = p,
                           .block = size, .bytes = per_rank ? size * (uint64_t)p : size, .nunits = p * m};
    cs_op op = {.kind = CS_OP_SEND, .peer = 1};
    int64_t len = g_rand_int_range(r, 0, 9), runs = g_rand_int_range(r, 1, 3);
    op.units = cs_units_strided(g_rand_int_range(r, -30, 30), len, g_rand_int_range(r, 1, 5), runs);
    op.unit_step = g_rand_int_range(r, -6, 7);
    int64_t i0 = g_rand_int_range(r, 0, 20), count = g_rand_int_range(r, 0, 40);
    uint64_t want = 0, bound = cs_units_largest_bytes(&prm, op.units);
    for (int64_t i = i0; i < i0 + count; i++) {
      uint64_t b = cs_units_bytes(&prm, cs_op_at_iteration(&prm, &op, i).units);
      ck_assert_uint_le(b, bound);
      want += b;
    }
    ck_assert_uint_eq(cs_loop_op_bytes(&prm, &op, i0, count), want);
  }
  g_rand_free(r);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("replay");
  TCase *tc = tcase_create("replay");
  /* every registered algorithm on every family: seconds here, minutes under
   * the sanitizers (Check's default is 4 s) */
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, ring_correct);
  tcase_add_test(tc, ring_short_fails);
  tcase_add_test(tc, reduce_correct_and_broken);
  tcase_add_test(tc, scatter_defects);
  tcase_add_test(tc, every_registered_algorithm);
  tcase_add_test(tc, unit_bytes);
  tcase_add_test(tc, loop_bytes_equal_iteration_sums);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
