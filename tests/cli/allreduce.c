/* `collsim allreduce` and `collsim tree-script` through the binary (seed 002).
 *  - Bad input: exit 2, one line naming the problem, no output file: missing
 *    or malformed --cluster, unknown trees, -n larger than the cluster, a
 *    broken script file (the message names the rank and the command), a bad
 *    --order, --groups out of range.
 *  - JSON has the documented keys; every Allreduce result is checked
 *    (result_ok true) and messages per Allreduce = 2 (n - 1); hierarchical
 *    trees on 8 x 4 send 14 messages between nodes, LAM's 35.
 *  - A generated tree dumped with tree-script and loaded back as a file gives
 *    the same simulated time as the generator itself.
 *  - The search's time equals the smallest found by an exhaustive run, done
 *    here, of every tree of the families it covers (lam, linear,
 *    hierarchical with 1..cores groups, kary-node with 1..cores groups and
 *    fan-out 1..nodes-1, each in both receive orders: 20 trees on 4 x 2),
 *    each through the CLI on its own; its script, written out and loaded
 *    back, gives the same time.
 *  - Identical runs give identical output. */
#include "tests/lib/harness.h"

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char *tmpdir;

static void setup(void) { tmpdir = harness_tmpdir_new(); }

static void teardown(void)
{
  harness_tmpdir_remove(tmpdir);
  tmpdir = NULL;
}

#define expect_bad(word, ...) harness_expect_bad(tmpdir, word, "allreduce", __VA_ARGS__)

START_TEST(bad_inputs)
{
  expect_bad("--platform SPEC is required", "--trees", "lam", NULL);
  expect_bad("bad cluster", "--cluster", "8x", NULL);
  expect_bad("bad cluster", "--cluster", "6x4", NULL); /* no processor known for this shape */
  /* 4w's shape without a clock: refused, not given 4w's 166 MHz */
  expect_bad("a shape needs its processors' clock: add @MHZ", "--cluster", "8x4", NULL);
  expect_bad("unknown trees", "--cluster", "4w", "--trees", "spiral", NULL);
  expect_bad("n = 33 is larger than the platform", "--cluster", "4w", "-n", "33", NULL);
  expect_bad("--order", "--cluster", "4w", "--order", "random", NULL);
  expect_bad("--groups", "--cluster", "4w", "--trees", "hierarchical", "--groups", "5", NULL);
  char *broken = harness_write_file(tmpdir, "broken.yaml",
                                    "name: broken\nn: 3\nroot: 0\nreduce:\n  0: [recv 1, recv 2]\n  1: [send 0]\n"
                                    "  2: [send 1]\nbcast:\n  0: [send 1, send 2]\n  1: [recv 0]\n  2: [recv 0]\n");
  expect_bad("rank", "--cluster", "4w", "--trees", broken, "-n", "3", NULL);
  char *missing = harness_path(tmpdir, "missing.yaml");
  expect_bad("missing.yaml", "--cluster", "4w", "--trees", missing, NULL);
  g_free(broken);
  g_free(missing);
}
END_TEST

static void run_json_on(harness_result *r, const char *cluster, const char *trees, const char *n)
{
  harness_runl(r, "allreduce", "--cluster", cluster, "--trees", trees, "-n", n, "--iterations", "20", "--format",
               "json", "-q", NULL);
  ck_assert_msg(r->exit_status == 0, "%s: %s", trees, r->err);
}

static void run_json(harness_result *r, const char *trees, const char *n)
{
  run_json_on(r, "4w", trees, n);
}

/* A shape with its clock given is that cluster: 8x4@166 times as the 4w
 * preset does, and says its clock in its label. */
START_TEST(shape_with_clock)
{
  harness_result a, b;
  run_json(&a, "lam", "32");
  run_json_on(&b, "8x4@166", "lam", "32");
  double x, y;
  ck_assert(harness_json_double(a.out, "us_per_allreduce", &x));
  ck_assert(harness_json_double(b.out, "us_per_allreduce", &y));
  ck_assert_msg(x == y, "4w %g us, 8x4@166 %g us", x, y);
  ck_assert_msg(strstr(b.out, "\"8x4@166\"") != NULL, "no 8x4@166 label: %s", b.out);
  harness_result_clear(&a);
  harness_result_clear(&b);
}
END_TEST

START_TEST(json_and_counts)
{
  const char *trees[] = {"lam", "linear", "hierarchical"};
  gint64 internode_32[] = {35, 56, 14};
  for (size_t t = 0; t < G_N_ELEMENTS(trees); t++)
    for (int n = 1; n <= 32; n += 31) {
      harness_result r;
      char nbuf[8];
      snprintf(nbuf, sizeof nbuf, "%d", n);
      run_json(&r, trees[t], nbuf);
      gboolean ok = FALSE;
      gint64 msgs, inter, nn;
      double us;
      ck_assert(harness_json_bool(r.out, "result_ok", &ok) && ok);
      ck_assert(harness_json_int(r.out, "messages_per_allreduce", &msgs));
      ck_assert_int_eq(msgs, 2 * (n - 1));
      ck_assert(harness_json_int(r.out, "internode_messages_per_allreduce", &inter));
      if (n == 32)
        ck_assert_int_eq(inter, internode_32[t]);
      ck_assert(harness_json_int(r.out, "n", &nn) && nn == n);
      ck_assert(harness_json_double(r.out, "us_per_allreduce", &us));
      ck_assert(n == 1 ? us == 0 : us > 0);
      ck_assert(harness_json_has(r.out, "cluster") && harness_json_has(r.out, "trees") &&
                harness_json_has(r.out, "iterations"));
      harness_result_clear(&r);
    }
}
END_TEST

START_TEST(dumped_script_runs_the_same)
{
  char *yaml = harness_path(tmpdir, "lam32.yaml");
  harness_result a, b, c;
  harness_runl(&a, "tree-script", "--from", "lam", "-n", "32", "--cluster", "4w", "--out", yaml, NULL);
  ck_assert_msg(a.exit_status == 0, "%s", a.err);
  run_json(&b, "lam", "32");
  run_json(&c, yaml, "32");
  double x, y;
  ck_assert(harness_json_double(b.out, "us_per_allreduce", &x));
  ck_assert(harness_json_double(c.out, "us_per_allreduce", &y));
  ck_assert_msg(x == y, "generator %g us, its script %g us", x, y);
  harness_result_clear(&a);
  harness_result_clear(&b);
  harness_result_clear(&c);
  g_free(yaml);
}
END_TEST

/* One tree on 4x2@300, 10 iterations, run through the CLI on its own: its
 * time per Allreduce, in us.  groups, fanout 0: not given. */
static double tree_us(const char *family, int groups, int fanout, const char *order)
{
  char g[16], k[16];
  snprintf(g, sizeof g, "%d", groups);
  snprintf(k, sizeof k, "%d", fanout);
  harness_result r;
  harness_runl(&r, "allreduce", "--cluster", "4x2@300", "--trees", family, "--order", order, "--iterations", "10",
               "--format", "json", "-q", groups ? "--groups" : NULL, g, fanout ? "--fanout" : NULL, k, NULL);
  ck_assert_msg(r.exit_status == 0, "%s groups=%d fanout=%d %s: %s", family, groups, fanout, order, r.err);
  double us;
  ck_assert(harness_json_double(r.out, "us_per_allreduce", &us));
  harness_result_clear(&r);
  return us;
}

/* The smallest time over every tree of the searched families on 4x2@300 (4
 * nodes of 2 cores), enumerated here; *trees gets how many were run. */
static double exhaustive_best(int *trees)
{
  const char *orders[] = {"scripted", "arrival"};
  double best = G_MAXDOUBLE;
  *trees = 0;
  for (int o = 0; o < 2; o++) {
    best = MIN(best, tree_us("lam", 0, 0, orders[o]));
    best = MIN(best, tree_us("linear", 0, 0, orders[o]));
    *trees += 2;
    for (int g = 1; g <= 2; g++) {
      best = MIN(best, tree_us("hierarchical", g, 0, orders[o]));
      (*trees)++;
      for (int k = 1; k <= 3; k++, (*trees)++)
        best = MIN(best, tree_us("kary-node", g, k, orders[o]));
    }
  }
  return best;
}

/* The search on a small cluster finds the fastest tree of the families it
 * covers (a bound computed here, not by the search), and its script,
 * written out and loaded back, gives the same time. */
START_TEST(search_finds_the_fastest_tree)
{
  char *yaml = harness_path(tmpdir, "best.yaml");
  harness_result b, f;
  harness_runl(&b, "allreduce", "--cluster", "4x2@300", "--trees", "best", "--iterations", "10",
               "--search-iterations", "10", "--write-script", yaml, "--format", "json", "-q", NULL);
  ck_assert_msg(b.exit_status == 0, "%s", b.err);
  harness_runl(&f, "allreduce", "--cluster", "4x2@300", "--trees", yaml, "--iterations", "10", "--format", "json",
               "-q", NULL);
  double best, file;
  ck_assert(harness_json_double(b.out, "us_per_allreduce", &best));
  ck_assert(harness_json_double(f.out, "us_per_allreduce", &file));
  int trees = 0;
  double fastest = exhaustive_best(&trees);
  ck_assert_int_eq(trees, 20);
  ck_assert_msg(best == fastest, "the search found %g us, the fastest of the %d trees takes %g us", best, trees,
                fastest);
  ck_assert_msg(file == best, "the written script gives %g, the search %g", file, best);
  ck_assert(strstr(b.out, "\"trees\": \"best: ") != NULL);
  harness_result_clear(&b);
  harness_result_clear(&f);
  g_free(yaml);
}
END_TEST

START_TEST(identical_runs)
{
  harness_result a, b;
  run_json(&a, "hierarchical", "24");
  run_json(&b, "hierarchical", "24");
  ck_assert_str_eq(a.out, b.out);
  harness_result_clear(&a);
  harness_result_clear(&b);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("cli-allreduce");
  TCase *tc = tcase_create("cli-allreduce");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, bad_inputs);
  tcase_add_test(tc, json_and_counts);
  tcase_add_test(tc, shape_with_clock);
  tcase_add_test(tc, dumped_script_runs_the_same);
  tcase_add_test(tc, search_finds_the_fastest_tree);
  tcase_add_test(tc, identical_runs);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
