/* Tests of `collsim reproduce` (sim/cli/reproduce.c, scripts/lib-reproduce.sh)
 * and of the row-by-row comparison (sim/cli/compare.c, `collsim compare`).
 *
 *  - help: every subcommand (from `collsim --help`) and every target
 *    (scripts/reproduce-*.sh) answers --help with exit 0.
 *  - bad input: unknown target, no target, stray argument, bad option, bad
 *    --out, a non-empty DIR without --resume, --resume into a folder that
 *    holds no reproduction or another one: exit 2, one line on stderr,
 *    nothing on stdout, nothing made, the folder untouched.
 *  - compare: small CSV files through the C functions and `collsim compare`:
 *    a perturbed row is reported as differing with the column named, keys
 *    with quoted commas, ignored wall-clock columns, --subset, rows only
 *    here, different headers, repeated keys, folders.
 *  - a fake target: a tree (COLLSIM_SRCDIR) holding a stub
 *    scripts/reproduce-fake.sh on the real scripts/lib-reproduce.sh (a
 *    three-point `collsim comm space` sweep and a step that fails on
 *    request): default DIR, progress lines, a failed step and --resume, a
 *    perturbed committed row, --quick with its cut experiment, an
 *    interruption.
 * The cheapest real target, seed001 --quick, recomputing the committed
 * results/seed001/ is a reproduction test: tests/repro/reproduce-seed001.sh. */
#include "sim/cli/compare.h"
#include "tests/lib/harness.h"

#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *srcdir(void)
{
  const char *d = g_getenv("COLLSIM_SRCDIR");
  return d && *d ? d : COLLSIM_SRCDIR;
}

static char *tmpdir;

static void setup(void)
{
  tmpdir = harness_tmpdir_new();
  g_setenv("COLLSIM_SRCDIR", srcdir(), TRUE); /* fixed before a test changes it */
}

static void teardown(void)
{
  harness_tmpdir_remove(tmpdir);
  tmpdir = NULL;
}

/* Runs collsim; checks the exit status; returns the result (clear it). */
static harness_result run_expect(int status, const char *first, ...) G_GNUC_NULL_TERMINATED;
static harness_result run_expect(int status, const char *first, ...)
{
  va_list ap;
  va_start(ap, first);
  GPtrArray *args = harness_args_va(first, ap);
  va_end(ap);
  harness_result r;
  harness_run(&r, (const char *const *)args->pdata);
  g_ptr_array_free(args, TRUE);
  ck_assert_msg(r.exit_status == status, "exit %d (expected %d)\nstdout: %s\nstderr: %s", r.exit_status, status,
                r.out, r.err);
  return r;
}

static void assert_has(const char *text, const char *want)
{
  ck_assert_msg(strstr(text, want) != NULL, "'%s' not in:\n%s", want, text);
}

/* Bad input: exit 2, one line on stderr containing word, nothing on stdout. */
#define EXPECT_BAD(word, ...)                                                                                       \
  do {                                                                                                             \
    harness_result r_ = run_expect(2, __VA_ARGS__, NULL);                                                          \
    assert_has(r_.err, word);                                                                                      \
    ck_assert_int_eq(harness_count_lines(r_.err), 1);                                                              \
    ck_assert_str_eq(r_.out, "");                                                                                  \
    harness_result_clear(&r_);                                                                                     \
  } while (0)

/* "name size mtime" of every entry of a folder, sorted: to see it untouched. */
static char *listing(const char *dir)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
  GDir *d = g_dir_open(dir, 0, NULL);
  for (const char *e; d && (e = g_dir_read_name(d));) {
    char *path = g_build_filename(dir, e, NULL);
    GStatBuf st;
    if (g_stat(path, &st) == 0)
      g_ptr_array_add(lines, g_strdup_printf("%s %lld %lld", e, (long long)st.st_size, (long long)st.st_mtime));
    g_free(path);
  }
  if (d)
    g_dir_close(d);
  g_ptr_array_sort(lines, cs_compare_by_name);
  g_ptr_array_add(lines, NULL);
  char *s = g_strjoinv("\n", (char **)lines->pdata);
  g_ptr_array_free(lines, TRUE);
  return s;
}

/* ------------------------------------------------------------- help ---- */

START_TEST(every_subcommand_answers_help)
{
  harness_result top = run_expect(0, "--help", NULL);
  GRegex *re = g_regex_new("^  ([a-z][a-z-]*)  ", G_REGEX_MULTILINE, 0, NULL);
  GMatchInfo *m = NULL;
  int n = 0;
  for (g_regex_match(re, top.out, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
    char *cmd = g_match_info_fetch(m, 1);
    harness_result r = run_expect(0, cmd, "--help", NULL);
    assert_has(r.out, "Usage:");
    harness_result_clear(&r);
    g_free(cmd);
    n++;
  }
  g_match_info_free(m);
  g_regex_unref(re);
  ck_assert_int_ge(n, 12);
  assert_has(top.out, "  compare ");
  harness_result_clear(&top);
}
END_TEST

START_TEST(every_target_answers_help)
{
  char *scripts = g_build_filename(srcdir(), "scripts", NULL);
  GPtrArray *files = cs_list_files(scripts, "reproduce-", ".sh");
  ck_assert_int_ge(files->len, 6);
  harness_result all = run_expect(0, "reproduce", "--help", NULL);
  for (guint i = 0; i < files->len; i++) {
    const char *f = g_ptr_array_index(files, i);
    char *name = g_strndup(f + strlen("reproduce-"), strlen(f) - strlen("reproduce-.sh"));
    harness_result r = run_expect(0, "reproduce", name, "--help", NULL);
    char *first = g_strdup_printf("%s: ", name);
    assert_has(r.out, first);     /* the summary line */
    assert_has(r.out, "Duration: "); /* full and quick durations */
    assert_has(r.out, "--quick");  /* the quick subset, and the options */
    assert_has(r.out, "--resume");
    assert_has(r.out, "--out=DIR");
    char *listed = g_strdup_printf("  %s ", name);
    assert_has(all.out, listed);
    g_free(listed);
    g_free(first);
    g_free(name);
    harness_result_clear(&r);
  }
  harness_result_clear(&all);
  g_ptr_array_unref(files);
  g_free(scripts);
}
END_TEST

/* -------------------------------------------------------- bad input ---- */

START_TEST(bad_targets_and_options)
{
  ck_assert_int_eq(chdir(tmpdir), 0);
  EXPECT_BAD("unknown target 'no-such'", "reproduce", "no-such");
  EXPECT_BAD("unknown target '../x'", "reproduce", "../x");
  EXPECT_BAD("expected a TARGET", "reproduce");
  EXPECT_BAD("unexpected argument 'extra'", "reproduce", "seed001", "extra");
  EXPECT_BAD("--bogus", "reproduce", "seed001", "--bogus");
  EXPECT_BAD("--jobs", "reproduce", "seed001", "--jobs", "0");
  EXPECT_BAD("--out", "reproduce", "seed001", "--out", "");
  EXPECT_BAD("not a folder", "reproduce", "seed001", "--out", "/dev/null");
  EXPECT_BAD("cannot make it", "reproduce", "seed001", "--out", "/etc/hostname/x");
  EXPECT_BAD("--quick", "reproduce", "seed001", "--quick", "--quick");
  char *left = listing(tmpdir);
  ck_assert_str_eq(left, ""); /* no reproduce-seed001/ made */
  g_free(left);
}
END_TEST

START_TEST(non_empty_dir_refused_untouched)
{
  char *dir = harness_path(tmpdir, "mine");
  ck_assert_int_eq(g_mkdir(dir, 0755), 0);
  g_free(harness_write_file(dir, "notes.txt", "keep me\n"));
  char *before = listing(dir);
  EXPECT_BAD("give --resume", "reproduce", "seed001", "--out", dir);
  EXPECT_BAD("give --resume", "reproduce", "seed001", "--quick", "--out", dir);
  EXPECT_BAD("holds no reproduction", "reproduce", "seed001", "--resume", "--out", dir);
  /* a reproduction of another target, or of the same one in the other mode */
  g_free(harness_write_file(dir, ".reproduce", "target=seed004\nquick=1\n"));
  char *stamped = listing(dir);
  EXPECT_BAD("holds a reproduction of seed004 --quick, not seed001 --quick", "reproduce", "seed001", "--quick",
             "--resume", "--out", dir);
  EXPECT_BAD("holds a reproduction of seed004 --quick, not seed004", "reproduce", "seed004", "--resume", "--out",
             dir);
  char *after = listing(dir);
  ck_assert_str_eq(after, stamped);
  ck_assert_str_ne(before, "");
  g_free(before);
  g_free(stamped);
  g_free(after);
  g_free(dir);
}
END_TEST

/* ---------------------------------------------------------- compare ---- */

static const char *const OLD_CSV = "net,coll,algo,p,messages,sim_time_s,wall_s,total_wall_ms\n"
                                   "\"percs:64,16,1\",scatter,binomial,1024,1023,0.11,1.5,7\n"
                                   "\"percs:64,16,1\",gather,binomial,1024,1023,0.12,1.6,8\n"
                                   "\"percs:64,16,16\",gather,binomial,16384,16383,0.13,1.7,9\n";

/* Compares OLD_CSV with text; returns the report (g_free it), fills t. */
static char *compare_with(const char *text, bool subset, cs_compare_totals *t)
{
  char *c = harness_write_file(tmpdir, "committed.csv", OLD_CSV), *n = harness_write_file(tmpdir, "now.csv", text);
  cs_compare_opts o = {NULL, NULL, 0, subset};
  GString *report = g_string_new(NULL);
  GError *e = NULL;
  memset(t, 0, sizeof *t);
  ck_assert(cs_compare_files("now.csv", c, n, &o, t, report, &e));
  cs_compare_summary(t, &o, report);
  g_free(c);
  g_free(n);
  return g_string_free(report, FALSE);
}

START_TEST(compare_same_rows_any_order_wall_ignored)
{
  cs_compare_totals t;
  char *rep = compare_with("net,coll,algo,p,messages,sim_time_s,wall_s,total_wall_ms\n"
                           "\"percs:64,16,16\",gather,binomial,16384,16383,0.13,99,99\n"
                           "\"percs:64,16,1\",scatter,binomial,1024,1023,0.11,0.1,1\n"
                           "\"percs:64,16,1\",gather,binomial,1024,1023,1.2e-1,3,3\n",
                           false, &t);
  ck_assert_uint_eq(t.same, 3);
  cs_compare_opts o = {0};
  ck_assert(cs_compare_ok(&t, &o));
  assert_has(rep, "rows matched on: net coll algo p");
  assert_has(rep, "ignored (measured here): wall_s total_wall_ms");
  assert_has(rep, "MATCH");
  g_free(rep);
}
END_TEST

START_TEST(compare_perturbed_row_names_its_column)
{
  cs_compare_totals t;
  char *rep = compare_with("net,coll,algo,p,messages,sim_time_s,wall_s,total_wall_ms\n"
                           "\"percs:64,16,1\",scatter,binomial,1024,1023,0.11,1.5,7\n"
                           "\"percs:64,16,1\",gather,binomial,1024,1024,0.12,1.6,8\n"
                           "\"percs:64,16,16\",gather,binomial,16384,16383,0.13,1.7,9\n",
                           false, &t);
  ck_assert_uint_eq(t.same, 2);
  ck_assert_uint_eq(t.differ, 1);
  cs_compare_opts o = {0};
  ck_assert(!cs_compare_ok(&t, &o));
  assert_has(rep, "differs: net=percs:64,16,1 coll=gather algo=binomial p=1024\n"
                  "    messages: committed 1023, now 1024\n");
  ck_assert_ptr_null(strstr(rep, "sim_time_s:"));
  assert_has(rep, "DIFFERENT");
  g_free(rep);
}
END_TEST

START_TEST(compare_subset_only_here_and_columns)
{
  cs_compare_totals t;
  cs_compare_opts full = {0}, quick = {NULL, NULL, 0, true};
  const char *subset = "net,coll,algo,p,messages,sim_time_s,wall_s\n"
                       "\"percs:64,16,1\",scatter,binomial,1024,1023,0.11,1.5\n";
  char *rep = compare_with(subset, true, &t);
  ck_assert_uint_eq(t.only_committed, 2);
  ck_assert(cs_compare_ok(&t, &quick));  /* --quick: expected */
  ck_assert(!cs_compare_ok(&t, &full)); /* a full run should have made them */
  assert_has(rep, "(not recomputed: --quick, expected)");
  g_free(rep);
  rep = compare_with("net,coll,algo,p,messages,sim_time_s,extra\n"
                     "\"percs:64,16,1\",scatter,binomial,1024,1023,0.11,x\n"
                     "\"percs:64,16,1\",bcast,binomial,1024,1023,0.11,x\n",
                     true, &t);
  ck_assert_uint_eq(t.only_now, 1);
  ck_assert_uint_eq(t.columns_differ, 1);
  ck_assert(!cs_compare_ok(&t, &quick));
  assert_has(rep, "only here (no committed row with this configuration):\n    net=percs:64,16,1 coll=bcast");
  assert_has(rep, "DIFFERENT COLUMNS: only here: extra");
  g_free(rep);
  /* the columns --with-config adds, which committed files made before them
   * lack, say how a row was made: reported, not a difference */
  rep = compare_with("net,coll,algo,p,messages,sim_time_s,config_args,collsim_version\n"
                     "\"percs:64,16,1\",scatter,binomial,1024,1023,0.11,x,0.1.0\n",
                     true, &t);
  ck_assert_uint_eq(t.columns_differ, 0);
  ck_assert(cs_compare_ok(&t, &quick));
  assert_has(rep, "the run's configuration, only here (not compared): config_args, collsim_version");
  g_free(rep);
}
END_TEST

START_TEST(compare_repeated_keys_and_no_key)
{
  cs_compare_totals t = {0};
  cs_compare_opts o = {0};
  char *c = harness_write_file(tmpdir, "c.csv", "n,x\n4,1\n4,2\n8,3\n");
  char *n = harness_write_file(tmpdir, "n.csv", "n,x\n4,1\n4,5\n8,3\n");
  GString *rep = g_string_new(NULL);
  ck_assert(cs_compare_files("n.csv", c, n, &o, &t, rep, NULL));
  ck_assert_uint_eq(t.same, 2);
  ck_assert_uint_eq(t.differ, 1);
  assert_has(rep->str, "differs: n=4\n    x: committed 2, now 5\n");
  /* no known configuration column: rows by number; --key names one */
  char *c2 = harness_write_file(tmpdir, "c2.csv", "a,b\nu,1\nv,2\n");
  char *n2 = harness_write_file(tmpdir, "n2.csv", "a,b\nv,2\nu,1\n");
  memset(&t, 0, sizeof t);
  g_string_truncate(rep, 0);
  ck_assert(cs_compare_files("n2.csv", c2, n2, &o, &t, rep, NULL));
  ck_assert_uint_eq(t.differ, 2);
  assert_has(rep->str, "(no configuration column: their row numbers)");
  char *key[] = {"a", NULL};
  cs_compare_opts by_a = {key, NULL, 0, false};
  memset(&t, 0, sizeof t);
  ck_assert(cs_compare_files("n2.csv", c2, n2, &by_a, &t, rep, NULL));
  ck_assert_uint_eq(t.same, 2);
  GError *e = NULL;
  ck_assert(!cs_compare_files("x", "/nonexistent.csv", n2, &o, &t, rep, &e));
  ck_assert_ptr_nonnull(e);
  g_error_free(e);
  g_string_free(rep, TRUE);
  g_free(c);
  g_free(n);
  g_free(c2);
  g_free(n2);
}
END_TEST

START_TEST(compare_command_on_folders)
{
  char *c = harness_path(tmpdir, "c"), *n = harness_path(tmpdir, "n");
  g_mkdir(c, 0755);
  g_mkdir(n, 0755);
  g_free(harness_write_file(c, "a.csv", "n,x\n1,2\n"));
  g_free(harness_write_file(c, "old.csv", "n,x\n1,2\n"));
  g_free(harness_write_file(n, "a.csv", "n,x\n1,3\n"));
  g_free(harness_write_file(n, "new.csv", "n,x\n1,2\n"));
  g_free(harness_write_file(n, ".a.csv", "n,x\n1,9\n")); /* a working copy: not compared */
  harness_result r = run_expect(1, "compare", c, n, NULL);
  assert_has(r.out, "a.csv: 1 rows made, 1 committed: 0 same, 1 differ");
  assert_has(r.out, "    x: committed 2, now 3\n");
  assert_has(r.out, "new.csv: 1 rows made; not committed, nothing to compare with");
  assert_has(r.out, "old.csv: committed (1 rows), not made by this run");
  harness_result_clear(&r);
  char *ca = harness_path(c, "a.csv");
  r = run_expect(0, "compare", ca, ca, NULL);
  assert_has(r.out, "MATCH: 1 file(s) compared: 1 rows same");
  harness_result_clear(&r);
  char *na = harness_path(n, "a.csv");
  r = run_expect(0, "compare", "--tolerance", "0.5", ca, na, NULL);
  harness_result_clear(&r);
  g_free(na);
  EXPECT_BAD("two files or two folders", "compare", ca, n);
  EXPECT_BAD("expected COMMITTED and NOW", "compare", ca);
  EXPECT_BAD("No such file", "compare", ca, "/nonexistent.csv");
  g_free(ca);
  g_free(c);
  g_free(n);
}
END_TEST

/* ------------------------------------------------------- fake target ---- */

/* A source tree with scripts/reproduce-fake.sh (on the real lib) and
 * results/fake/flaky.csv; COLLSIM_SRCDIR points at it.  Returns its path. */
static char *fake_tree(void)
{
  char *src = harness_path(tmpdir, "src");
  const char *dirs[] = {"scripts", "experiments", "results/fake"};
  for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
    char *d = g_build_filename(src, dirs[i], NULL);
    g_mkdir_with_parents(d, 0755);
    g_free(d);
  }
  char *scripts = harness_path(src, "scripts"), *exp = harness_path(src, "experiments");
  char *script = g_strdup_printf(
      "#!/usr/bin/env bash\n"
      "# fake: a tiny target of tests/cli/reproduce.c\n"
      "# Duration: a second; --quick less\n"
      "#\n"
      "# Makes space.csv (collsim comm space, three shapes) and flaky.csv (fails\n"
      "# when FAKE_FAIL is set); --quick the shape 10,2,2 only.\n"
      "\n"
      "source %s/scripts/lib-reproduce.sh\n"
      "flaky() {\n"
      "  [ -z \"${FAKE_FAIL:-}\" ] || { warn 'flaky: failing as asked'; exit 1; }\n"
      "  [ -z \"${FAKE_SLEEP:-}\" ] || sleep \"$FAKE_SLEEP\"\n"
      "  printf 'n,value\\n1,2\\n' > \"$out/flaky.csv\"\n"
      "}\n"
      "if is_quick; then\n"
      "  cut=$(quick_yaml space \"$src/experiments/space.yaml\" 'cpm=10,2,2')\n"
      "  step space.csv 1 \"collsim sweep quick-space.yaml\" sweep_csv space \"$cut\"\n"
      "else\n"
      "  step space.csv 1 \"collsim sweep experiments/space.yaml\" sweep_csv space \"$src/experiments/space.yaml\"\n"
      "fi\n"
      "step flaky.csv 1 \"a step that may fail\" flaky\n"
      "run_steps\n",
      srcdir());
  g_free(harness_write_file(scripts, "reproduce-fake.sh", script));
  g_free(harness_write_file(exp, "space.yaml",
                            "name: space\ncommand: comm\nparameters:\n  op: space\n"
                            "  cpm: [\"1000,100,10\", \"6875,8,2\", \"10,2,2\"]\n"));
  char *committed = g_build_filename(src, "results", "fake", NULL);
  g_free(harness_write_file(committed, "flaky.csv", "n,value\n1,2\n"));
  g_setenv("COLLSIM_SRCDIR", src, TRUE);
  g_free(committed);
  g_free(script);
  g_free(scripts);
  g_free(exp);
  return src;
}

START_TEST(fake_default_dir_failed_step_and_resume)
{
  char *src = fake_tree();
  ck_assert_int_eq(chdir(tmpdir), 0);
  harness_result r = run_expect(0, "reproduce", "--help", NULL);
  assert_has(r.out, "  fake ");
  assert_has(r.out, "a second; --quick less");
  harness_result_clear(&r);
  g_setenv("FAKE_FAIL", "1", TRUE);
  r = run_expect(1, "reproduce", "fake", NULL);
  assert_has(r.err, "reproduce fake: step 1/2 space.csv: collsim sweep experiments/space.yaml, ~1 s");
  assert_has(r.err, "space: 3/3 done"); /* the sweep's own progress */
  assert_has(r.err, "step 2/2 flaky.csv failed");
  assert_has(r.out, "Some steps FAILED");
  assert_has(r.out, "space.csv: 3 rows made; not committed");
  assert_has(r.out, "flaky.csv: committed (1 rows), not made by this run");
  harness_result_clear(&r);
  char *dir = harness_path(tmpdir, "reproduce-fake"), *report = harness_path(dir, "COMPARISON.txt");
  char *text = harness_read_file(report);
  ck_assert_ptr_nonnull(text);
  assert_has(text, "space.csv: 3 rows made");
  g_free(text);
  EXPECT_BAD("is not empty: give --resume", "reproduce", "fake");
  g_unsetenv("FAKE_FAIL");
  r = run_expect(0, "reproduce", "fake", "--resume", NULL);
  assert_has(r.err, "step 1/2 space.csv: made already, skipped (--resume)");
  assert_has(r.out, "flaky.csv: 1 rows made, 1 committed: 1 same");
  assert_has(r.out, "MATCH");
  harness_result_clear(&r);
  r = run_expect(0, "reproduce", "fake", "--resume", "--quiet", NULL);
  ck_assert_str_eq(r.err, "");
  harness_result_clear(&r);
  g_free(dir);
  g_free(report);
  g_free(src);
}
END_TEST

START_TEST(fake_perturbed_committed_row_and_quick)
{
  char *src = fake_tree();
  char *d1 = harness_path(tmpdir, "d1"), *d2 = harness_path(tmpdir, "d2"), *d3 = harness_path(tmpdir, "d3");
  harness_result r = run_expect(0, "reproduce", "fake", "--out", d1, NULL);
  harness_result_clear(&r);
  /* commit d1's space.csv with one value of the first shape changed */
  char *made = harness_path(d1, "space.csv"), *text = harness_read_file(made);
  ck_assert_ptr_nonnull(text);
  char *at = strstr(text, "\"1000,100,10\",1000000,20,");
  ck_assert_ptr_nonnull(at);
  at[strlen("\"1000,100,10\",1000000,2")] = '1'; /* bits_per_rank 20 -> 21 */
  char *committed = g_build_filename(src, "results", "fake", NULL);
  g_free(harness_write_file(committed, "space.csv", text));
  r = run_expect(1, "reproduce", "fake", "--out", d2, NULL);
  assert_has(r.out, "space.csv: 3 rows made, 3 committed: 2 same, 1 differ");
  assert_has(r.out, "  differs: op=space cpm=1000,100,10 n=1000000\n    bits_per_rank: committed 21, now 20\n");
  assert_has(r.out, "DIFFERENT");
  harness_result_clear(&r);
  /* --quick recomputes the shape 10,2,2 only: the others are expected missing */
  r = run_expect(0, "reproduce", "fake", "--quick", "--out", d3, NULL);
  assert_has(r.err, "step 1/2 space.csv: collsim sweep quick-space.yaml");
  assert_has(r.out, "space.csv: 1 rows made, 3 committed: 1 same, 0 differ, 0 only here, 2 only committed "
                    "(not recomputed: --quick, expected)");
  assert_has(r.out, "MATCH");
  harness_result_clear(&r);
  char *cut = harness_path(d3, "quick-space.yaml"), *cmd = harness_path(d3, "space.cmd");
  char *cut_text = harness_read_file(cut), *cmd_text = harness_read_file(cmd);
  assert_has(cut_text, "cpm: [\"10,2,2\"]");
  assert_has(cmd_text, "cut by cpm=10,2,2");
  g_free(cut_text);
  g_free(cmd_text);
  g_free(cut);
  g_free(cmd);
  g_free(committed);
  g_free(text);
  g_free(made);
  g_free(d1);
  g_free(d2);
  g_free(d3);
  g_free(src);
}
END_TEST

START_TEST(fake_interrupted_then_resumed)
{
  char *src = fake_tree();
  char *dir = harness_path(tmpdir, "d");
  g_setenv("FAKE_SLEEP", "30", TRUE);
  const char *argv[] = {"timeout", "--preserve-status", "-s", "TERM", "8", harness_collsim(), "reproduce", "fake",
                        "--out", dir, NULL};
  char *err = NULL;
  int status = 0;
  ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                         NULL, &err, &status, NULL));
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 143, "status %d: %s", status, err);
  assert_has(err, "--resume continues");
  g_free(err);
  g_unsetenv("FAKE_SLEEP");
  harness_result r = run_expect(0, "reproduce", "fake", "--out", dir, "--resume", NULL);
  assert_has(r.err, "space.csv: made already");
  assert_has(r.out, "MATCH");
  harness_result_clear(&r);
  g_free(dir);
  g_free(src);
}
END_TEST

/* ------------------------------------------------------ real target ---- */

int main(void)
{
  Suite *s = suite_create("reproduce");
  TCase *help = tcase_create("help");
  tcase_add_checked_fixture(help, setup, teardown);
  tcase_set_timeout(help, 120);
  tcase_add_test(help, every_subcommand_answers_help);
  tcase_add_test(help, every_target_answers_help);
  suite_add_tcase(s, help);
  TCase *bad = tcase_create("bad-input");
  tcase_add_checked_fixture(bad, setup, teardown);
  tcase_set_timeout(bad, 60);
  tcase_add_test(bad, bad_targets_and_options);
  tcase_add_test(bad, non_empty_dir_refused_untouched);
  suite_add_tcase(s, bad);
  TCase *cmp = tcase_create("compare");
  tcase_add_checked_fixture(cmp, setup, teardown);
  tcase_set_timeout(cmp, 60);
  tcase_add_test(cmp, compare_same_rows_any_order_wall_ignored);
  tcase_add_test(cmp, compare_perturbed_row_names_its_column);
  tcase_add_test(cmp, compare_subset_only_here_and_columns);
  tcase_add_test(cmp, compare_repeated_keys_and_no_key);
  tcase_add_test(cmp, compare_command_on_folders);
  suite_add_tcase(s, cmp);
  TCase *fake = tcase_create("fake-target");
  tcase_add_checked_fixture(fake, setup, teardown);
  tcase_set_timeout(fake, 120);
  tcase_add_test(fake, fake_default_dir_failed_step_and_resume);
  tcase_add_test(fake, fake_perturbed_committed_row_and_quick);
  tcase_add_test(fake, fake_interrupted_then_resumed);
  suite_add_tcase(s, fake);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
