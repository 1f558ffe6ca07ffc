/* `collsim sweep` and the environment variables the sweep gives its points,
 * through the binary ($COLLSIM, see harness.h); tests/unit/sweep.c tests the
 * parser and the runner in process.
 *  - experiments/smoke.yaml runs to 28 rows plus the header, quiet; run
 *    again with --dry-run, nothing is left to run;
 *  - not quiet, the sweep plans its points first (its own progress line),
 *    then counts them to the end;
 *  - COLLSIM_PLAN: the run stops before SimGrid and tells n and the
 *    messages its progress counts; COLLSIM_PROGRESS_LOG: a quiet run still
 *    logs, and its last line has the meter at its total;
 *  - the front end answers the sweep's question about which options write
 *    files (sim/sweep/option_query.h) from its option declarations. */
#include "sim/sweep/option_query.h"
#include "tests/lib/harness.h"

#include <check.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

static char *tmpdir;

static void setup(void) { tmpdir = harness_tmpdir_new(); }

static void teardown(void)
{
  harness_tmpdir_remove(tmpdir);
  tmpdir = NULL;
}

static char *smoke_yaml(void)
{
  const char *src = g_getenv("COLLSIM_SRCDIR");
  return g_build_filename(src && *src ? src : COLLSIM_SRCDIR, "experiments", "smoke.yaml", NULL);
}

/* Runs collsim with args (NULL-terminated) and expects exit 0. */
static void run_ok(harness_result *r, const char *const *args)
{
  harness_run(r, args);
  ck_assert_msg(r->exit_status == 0, "collsim %s: exit %d: %s", args[0], r->exit_status, r->err);
}

/* run_ok with the environment variable var set to value for the run. */
static void run_ok_with(const char *var, const char *value, const char *const *args)
{
  harness_result r;
  g_setenv(var, value, TRUE);
  run_ok(&r, args);
  g_unsetenv(var);
  harness_result_clear(&r);
}

START_TEST(smoke_runs_then_nothing_left)
{
  char *yaml = smoke_yaml(), *out = harness_path(tmpdir, "smoke.csv");
  harness_result r;
  const char *run[] = {"sweep", yaml, "--out", out, "--quiet", NULL};
  run_ok(&r, run);
  harness_result_clear(&r);
  char *text = harness_read_file(out);
  ck_assert_int_eq(harness_count_lines(text), 1 + 28);
  g_free(text);
  const char *dry[] = {"sweep", yaml, "--out", out, "--dry-run", NULL};
  run_ok(&r, dry);
  ck_assert_str_eq(r.out, "");
  harness_result_clear(&r);
  g_free(out);
  g_free(yaml);
}
END_TEST

START_TEST(sweep_plans_then_counts)
{
  char *yaml = smoke_yaml(), *out = harness_path(tmpdir, "planned.csv");
  harness_result r;
  const char *args[] = {"sweep", yaml, "--out", out, NULL};
  run_ok(&r, args);
  ck_assert_msg(strstr(r.err, "smoke: planning (each point's size, for the ETA): 28/28 done"), "%s", r.err);
  ck_assert_msg(strstr(r.err, "smoke: 28/28 done"), "%s", r.err);
  harness_result_clear(&r);
  g_free(out);
  g_free(yaml);
}
END_TEST

/* The last line of COLLSIM_PROGRESS_LOG after a run of args (the log
 * file NAME in the test folder): elapsed_s messages work computed_s done
 * total. */
typedef struct log_line {
  double elapsed, messages, work, computed, done, total;
} log_line;

static log_line last_progress_line(const char **args, const char *name)
{
  char *log = harness_path(tmpdir, name);
  run_ok_with("COLLSIM_PROGRESS_LOG", log, args);
  char *text = harness_read_file(log);
  ck_assert_ptr_nonnull(text);
  char **lines = g_strsplit(g_strchomp(text), "\n", -1);
  guint count = g_strv_length(lines);
  ck_assert_uint_ge(count, 1);
  log_line l;
  ck_assert_int_eq(sscanf(lines[count - 1], "%lf %lf %lf %lf %lf %lf", &l.elapsed, &l.messages, &l.work, &l.computed,
                          &l.done, &l.total), 6);
  g_strfreev(lines);
  g_free(text);
  g_free(log);
  return l;
}

/* comm-split, n = 40, f = 1: 40 x 6 rounds, 39 in the bracket's broadcast,
 * 39 in its reduction. */
START_TEST(plan_and_progress_log)
{
  const char *args[] = {"tree", "--algo", "comm-split", "-n", "40", "-f", "1", "--quiet", NULL};
  char *plan = harness_path(tmpdir, "plan.txt");
  run_ok_with("COLLSIM_PLAN", plan, args);
  char *text = harness_read_file(plan);
  long long n = 0;
  double messages = -1, work = -1, compute = -1;
  ck_assert_msg(text && sscanf(text, "%lld %lf %lf %lf", &n, &messages, &work, &compute) == 4, "plan: %s", text);
  ck_assert_int_eq(n, 40);
  ck_assert_double_eq(messages, 40 * 6 + 39 + 39);
  ck_assert(work > messages); /* every message weighs log2(8 + bytes) >= 3 */
  g_free(text);
  log_line got = last_progress_line(args, "progress.log");
  ck_assert_double_eq(got.messages, messages);
  ck_assert_double_eq_tol(got.work, work, 0.1); /* the log prints one decimal */
  ck_assert(got.total >= work && got.total < work + 1 && got.done >= got.total - 1);
  g_free(plan);
}
END_TEST

/* The native engine writes the same log for a quiet run: its last line
 * has every message delivered, done = total = the run's messages. */
START_TEST(native_progress_log)
{
  const char *args[] = {"tree", "--algo", "comm-split", "-n", "40", "-f", "1", "--engine", "native", "--quiet", NULL};
  log_line got = last_progress_line(args, "native-progress.log");
  ck_assert_double_eq(got.messages, 40 * 6 + 39 + 39);
  ck_assert_double_eq(got.done, got.messages);
  ck_assert_double_eq(got.total, got.messages);
}
END_TEST

/* collective's output options are its own (--per-link, --pairs,
 * --keep-platform) and the common ones (--out, --trace, --timeline); an
 * input file is not one.  Needs the call of cs_option_query_answer in
 * cs_cli_parse (sim/cli/frontend.c). */
START_TEST(front_end_answers_output_options)
{
  char *answer = harness_path(tmpdir, "answer.txt");
  const char *args[] = {"collective", "--help", NULL};
  harness_result r;
  g_setenv(CS_OPTION_QUERY_ENV, answer, TRUE);
  run_ok(&r, args);
  g_unsetenv(CS_OPTION_QUERY_ENV);
  harness_result_clear(&r);
  char *text = harness_read_file(answer);
  ck_assert_msg(text && *text, "collsim collective did not answer %s", CS_OPTION_QUERY_ENV);
  const char *want[] = {"per-link\tpath-out\n", "pairs\tpath-out\n", "keep-platform\tpath-out\n",
                        "\nout\tpath-out\n",    "trace\tpath-out\n", "timeline\tpath-out\n",
                        "script\tpath-in\n",      "\nformat\tchoice\n"};
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
    ck_assert_msg(strstr(text, want[i]), "no '%s' in:\n%s", want[i], text);
  g_free(text);
  g_free(answer);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("cli_sweep");
  TCase *tc = tcase_create("sweep");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, smoke_runs_then_nothing_left);
  tcase_add_test(tc, sweep_plans_then_counts);
  tcase_add_test(tc, plan_and_progress_log);
  tcase_add_test(tc, native_progress_log);
  tcase_add_test(tc, front_end_answers_output_options);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
