/* Regression tests of the tree-construction algorithms (seed 000).
 *
 * For every algorithm over many (n, f, k, colours, seed), including m = 0,
 * m = 1, m = n, k = 2 and n not a power of k: the run verifies (the driver's
 * verifier: spans exactly the members, degree <= k, links agree, minimal
 * height), and the message counts equal the exact expressions documented in
 * each algorithm's file, computed here independently from the membership,
 * and so does the registry's formula of each algorithm (the total that the
 * progress line counts deliveries against).
 * Check runs each case in a forked child, so SimGrid starts once per case.
 */
#include "algorithms/shapes/tree_shapes.h"
#include "platforms/platform.h"
#include "sim/contracts/tempdir.h"
#include "sim/drivers/spanning_tree_run.h"
#include "sim/engine/sg_engine.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct tree_case {
  const char *algo;
  int n, k, colors;
  double f;
  uint64_t seed;
} tree_case;

/* A BG/P torus sized for n (torus:auto/4), written to a temporary file. */
static char *write_torus(const char *spec, int n)
{
  GError *err = NULL;
  cs_platform *p = cs_platform_parse(spec, &err);
  ck_assert_msg(p && cs_platform_resolve(p, n, &err), "%s", err ? err->message : "?");
  char *path = NULL;
  ck_assert_msg(cs_platform_write_temp(p, &path, &err), "%s", err ? err->message : "?");
  cs_platform_free(p);
  return path;
}

static char *write_torus_for(int n) { return write_torus("torus:auto/4", n); }

static int run_case(const tree_case *tc, const char *members_file, cs_tree_result *res, GError **err)
{
  char *platform = write_torus_for(tc->n);
  cs_tree_params prm = {
    .algo = cs_tree_algo_find(tc->algo), .n = tc->n, .f = tc->f, .k = tc->k, .colors = tc->colors,
    .color_rule = CS_COLOR_MOD, .seed = tc->seed, .members_file = members_file, .bracket = TRUE,
    .verify = TRUE, .platform_desc = "test",
  };
  ck_assert_ptr_nonnull(prm.algo);
  cs_engine_config_defaults(&prm.engine);
  prm.engine.platform_file = platform;
  prm.engine.stack_kib = 256; /* sanitizer builds need deeper stacks */
  int rc = cs_tree_run(&prm, res, err);
  unlink(platform);
  g_free(platform);
  return rc;
}

/* ---- the expected counts, from the membership alone ---- */

/* Non-root vertices of the parent heap whose subtree holds a member. */
static uint64_t vertices_above_members(const cs_group *g, int k)
{
  int64_t *below = g_new0(int64_t, g->n);
  uint64_t s = 0;
  for (int64_t v = g->n - 1; v >= 0; v--) {
    below[v] += g->color[v] >= 0;
    if (v > 0) {
      s += below[v] > 0;
      below[kary_parent(v, k)] += below[v];
    }
  }
  g_free(below);
  return s;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static uint64_t hash_phase_messages(int64_t m, int k)
{
  return m == 0 ? 0 : (uint64_t)(2 * m - 1) + (uint64_t)(m - 1) + ceil_div((uint64_t)(m - 1), (uint64_t)k);
}

static uint64_t expected_messages(const tree_case *tc, const cs_group *g)
{
  uint64_t n = (uint64_t)tc->n;
  if (!strcmp(tc->algo, "centralized"))
    return (n - 1) + (g->m > 0 && g->color[0] < 0) + (g->m > 0 ? (uint64_t)g->m - 1 : 0);
  if (!strcmp(tc->algo, "rank-hash") || !strcmp(tc->algo, "rank-hash-split")) {
    uint64_t total = (n - 1) + (g->m > 0 ? vertices_above_members(g, tc->k) : 0);
    for (int c = 0; c < g->colors; c++)
      total += hash_phase_messages(g->m_color[c], tc->k);
    return total;
  }
  if (!strcmp(tc->algo, "comm-split")) {
    uint64_t rounds = 0;
    while ((1ULL << rounds) < n)
      rounds++;
    return n * rounds;
  }
  g_assert_not_reached();
}

static uint64_t expected_bracket_messages(const tree_case *tc, const cs_group *g)
{
  uint64_t total = (uint64_t)tc->n - 1;
  for (int c = 0; c < g->colors; c++)
    total += g->m_color[c] > 0 ? (uint64_t)g->m_color[c] - 1 : 0;
  return total;
}

static void check_case(const tree_case *tc)
{
  cs_tree_result res;
  GError *err = NULL;
  int rc = run_case(tc, NULL, &res, &err);
  ck_assert_msg(rc == 0, "%s n=%d f=%g k=%d C=%d seed=%llu: %s", tc->algo, tc->n, tc->f, tc->k, tc->colors,
                (unsigned long long)tc->seed, err ? err->message : "?");
  ck_assert_int_eq(res.verified, 1);
  cs_group *g = cs_group_draw(tc->n, tc->f, tc->colors, CS_COLOR_MOD, tc->seed);
  ck_assert_int_eq(res.m, g->m);
  const cs_tree_algo *algo = cs_tree_algo_find(tc->algo);
  if (!strcmp(tc->algo, "shrink-balance")) {
    /* No closed form; its upward pass alone reaches every vertex. */
    ck_assert_uint_ge(res.messages, (uint64_t)tc->n - 1);
    ck_assert_ptr_null(algo->messages);
  } else {
    uint64_t want = expected_messages(tc, g);
    ck_assert_msg(res.messages == want, "%s n=%d f=%g k=%d C=%d seed=%llu m=%lld: %llu messages, expected %llu",
                  tc->algo, tc->n, tc->f, tc->k, tc->colors, (unsigned long long)tc->seed, (long long)g->m,
                  (unsigned long long)res.messages, (unsigned long long)want);
    /* The registry's formula (the progress line's total) is this count too. */
    cs_tree_shape shape = {.n = g->n, .k = tc->k, .colors = g->colors, .color = g->color, .m_color = g->m_color};
    ck_assert_ptr_nonnull(algo->messages);
    ck_assert_uint_eq(algo->messages(&shape), want);
  }
  ck_assert_uint_eq(res.messages_bracketed - res.messages, expected_bracket_messages(tc, g));
  ck_assert_uint_le(res.bytes, res.bytes_bracketed);
  if (algo->work) {
    /* The declared progress work is what the run delivered: the algorithm's
     * messages by its formula, the bracket's words (int down, int64 up). */
    cs_tree_shape shape = {.n = g->n, .k = tc->k, .colors = g->colors, .color = g->color, .m_color = g->m_color};
    double want = algo->work(&shape) + (double)(tc->n - 1) * cs_message_work(sizeof(int));
    for (int c = 0; c < g->colors; c++)
      want += g->m_color[c] > 0 ? (double)(g->m_color[c] - 1) * cs_message_work(sizeof(int64_t)) : 0;
    ck_assert_msg(fabs(cs_engine_work() - want) <= 1e-9 * want, "%s n=%d: delivered work %.3f, declared %.3f",
                  tc->algo, tc->n, cs_engine_work(), want);
  }
  cs_group_free(g);
}

/* ---- the grid ---- */

/* Every registered construction (a new one joins by its registry row). */
#define NA cs_tree_algo_count
#define ALGO(i) (cs_tree_algos[i].name)
#define MULTICOLOR(i) (cs_tree_algos[i].multicolor)
static const int NS[] = {1, 2, 5, 13, 40, 121, 200};
static const double FS[] = {0, 0.01, 0.5, 1};
static const int KS[] = {2, 3, 4};
enum { NN = 7, NF = 4, NK = 3 };

static tree_case grid_case(int i)
{
  tree_case tc = {ALGO(i % NA), NS[(i / NA) % NN], KS[(i / (NA * NN * NF)) % NK], 1, FS[(i / (NA * NN)) % NF], 1};
  if (MULTICOLOR(i % NA))
    tc.colors = 1 + (i / NA) % 3;
  return tc;
}

START_TEST(test_grid)
{
  tree_case tc = grid_case(_i);
  check_case(&tc);
}
END_TEST

/* More seeds at f = 0.5 and larger n, k = 2..8. */
START_TEST(test_seeds)
{
  tree_case tc = {ALGO(_i % NA), 100 + 37 * (_i / NA), 2 + (_i / NA) % 7, 1, 0.5, (uint64_t)(11 + _i)};
  if (MULTICOLOR(_i % NA))
    tc.colors = 1 + _i % 4;
  check_case(&tc);
}
END_TEST

/* m = 1 at a chosen rank, through --members: the new tree is one vertex. */
START_TEST(test_single_member)
{
  static const int where[] = {0, 1, 57, 99};
  char *path = NULL;
  int fd = g_file_open_tmp("members-XXXXXX", &path, NULL);
  dprintf(fd, "# one member\n%d\n", where[_i % 4]);
  close(fd);
  tree_case tc = {ALGO(_i / 4), 100, 3, 1, 0, 1};
  cs_tree_result res;
  GError *err = NULL;
  int rc = run_case(&tc, path, &res, &err);
  unlink(path);
  g_free(path);
  ck_assert_msg(rc == 0, "%s: %s", tc.algo, err ? err->message : "?");
  ck_assert_int_eq(res.m, 1);
  ck_assert_int_eq(res.height, 0);
  ck_assert_int_eq(res.verified, 1);
}
END_TEST

/* n larger than the platform is bad input (status 2), caught before running. */
START_TEST(test_platform_too_small)
{
  char *path = write_torus("torus:2x2x2/4", 1); /* 8 nodes x 4 cores = 32 slots */
  cs_tree_params prm = {.algo = cs_tree_algo_find("rank-hash"), .n = 33, .f = 0.5, .k = 3, .colors = 1,
                        .seed = 1, .bracket = TRUE, .verify = TRUE, .platform_desc = "test"};
  cs_engine_config_defaults(&prm.engine);
  prm.engine.platform_file = path;
  cs_tree_result res;
  GError *err = NULL;
  ck_assert_int_eq(cs_tree_run(&prm, &res, &err), 2);
  ck_assert_ptr_nonnull(strstr(err->message, "larger than the platform"));
  unlink(path);
  g_free(path);
  g_error_free(err);
}
END_TEST

static Suite *trees_suite(void)
{
  Suite *s = suite_create("trees");
  TCase *grid = tcase_create("grid");
  tcase_set_timeout(grid, 120);
  tcase_add_loop_test(grid, test_grid, 0, NA * NN * NF * NK);
  tcase_add_loop_test(grid, test_seeds, 0, NA * 14);
  tcase_add_loop_test(grid, test_single_member, 0, NA * 4);
  tcase_add_test(grid, test_platform_too_small);
  suite_add_tcase(s, grid);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(trees_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
