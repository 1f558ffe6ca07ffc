/* Tests of the collsim command line (sim/cli/main.c, sim/cli/cli_tree.c), through the
 * binary ($COLLSIM, see harness.h).  Every run is tiny (n <= 64).
 *  - Bad input: exit status 2 and one line on stderr naming the problem, for
 *    unknown options, algorithms, formats; out-of-range -k, -f, --colors; too
 *    many colours for a one-group algorithm; n larger than an explicit torus
 *    or a platform file; malformed --torus; malformed, missing platform XML,
 *    and well-formed XML that SimGrid rejects; missing, unreadable or
 *    out-of-range members files; --out FILE is not created (an existing one
 *    is left alone) and no --trace file is written.
 *  - Good input: --list names the five algorithms; JSON has every documented
 *    key and verified = true; identical runs give identical CSV but for
 *    wall_s; other seeds change the result; --members gives m = the number
 *    of ranks listed; `platform` writes a SimGrid TORUS; --out writes the
 *    file atomically and nothing on stdout. */
#include "algorithms/spanning_trees/tree_algo.h"
#include "tests/lib/harness.h"

#include <check.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One directory per test case (unchecked fixture: removed even after a
 * failure) holding one directory per test (checked fixture). */
static char *casedir, *tmpdir;

static void setup_case(void) { casedir = harness_tmpdir_new(); }

static void teardown_case(void)
{
  harness_tmpdir_remove(casedir);
  casedir = NULL;
}

static void setup_tmp(void) { tmpdir = harness_tmpdir_new_in(casedir); }

static void teardown_tmp(void)
{
  harness_tmpdir_remove(tmpdir);
  tmpdir = NULL;
}

/* Number of entries in tmpdir. */
static int tmpdir_entries(void)
{
  GDir *d = g_dir_open(tmpdir, 0, NULL);
  ck_assert_ptr_nonnull(d);
  int count = 0;
  while (g_dir_read_name(d))
    count++;
  g_dir_close(d);
  return count;
}

/* ----------------------------------------------------------- bad input ---- */

/* Run `collsim <args> -q --out tmpdir/result.out` on bad input: exit 2 (not
 * a crash), stderr mentions `word` (in exactly one line when one_line),
 * nothing on stdout, no result file. */
static void expect_bad_input(gboolean one_line, const char *word, const char *const *argv)
{
  char *out = harness_path(tmpdir, "result.out");
  GPtrArray *args = g_ptr_array_new();
  for (const char *const *a = argv; *a; a++)
    g_ptr_array_add(args, (gpointer)*a);
  g_ptr_array_add(args, (gpointer) "-q");
  g_ptr_array_add(args, (gpointer) "--out");
  g_ptr_array_add(args, out);
  g_ptr_array_add(args, NULL);

  harness_result r;
  harness_run(&r, (const char *const *)args->pdata);
  ck_assert_msg(r.exit_status == 2, "exit status %d (signal %d), expected 2; stderr:\n%s", r.exit_status,
                r.term_signal, r.err);
  if (one_line)
    ck_assert_msg(harness_count_lines(r.err) == 1 && g_str_has_suffix(r.err, "\n"), "stderr is not one line:\n%s",
                  r.err);
  ck_assert_msg(strstr(r.err, word) != NULL, "stderr does not mention '%s':\n%s", word, r.err);
  ck_assert_msg(strstr(r.err, "error") != NULL, "stderr does not say error:\n%s", r.err);
  ck_assert_msg(r.out[0] == '\0', "stdout not empty:\n%s", r.out);
  ck_assert_msg(!g_file_test(out, G_FILE_TEST_EXISTS), "%s was created on bad input", out);
  harness_result_clear(&r);
  g_ptr_array_free(args, TRUE);
  g_free(out);
}

/* The strict form: exit 2 and a one-line message mentioning `word`. */
static void expect_usage_error(const char *word, const char *first, ...) G_GNUC_NULL_TERMINATED;
static void expect_usage_error(const char *word, const char *first, ...)
{
  va_list ap;
  va_start(ap, first);
  GPtrArray *args = harness_args_va(first, ap);
  va_end(ap);
  expect_bad_input(TRUE, word, (const char *const *)args->pdata);
  g_ptr_array_free(args, TRUE);
}

START_TEST(test_unknown_option)
{
  expect_usage_error("--bogus", "tree", "-a", "rank-hash", "-n", "8", "--bogus", NULL);
}
END_TEST

START_TEST(test_unknown_algorithm)
{
  expect_usage_error("no-such-algo", "tree", "-a", "no-such-algo", "-n", "8", NULL);
}
END_TEST

START_TEST(test_missing_algorithm)
{
  expect_usage_error("--algo", "tree", "-n", "8", NULL);
}
END_TEST

START_TEST(test_degree_one)
{
  expect_usage_error("-k", "tree", "-a", "rank-hash", "-n", "8", "-k", "1", NULL);
}
END_TEST

START_TEST(test_fraction_above_one)
{
  expect_usage_error("-f", "tree", "-a", "rank-hash", "-n", "8", "-f", "1.5", NULL);
}
END_TEST

START_TEST(test_fraction_negative)
{
  expect_usage_error("-f", "tree", "-a", "rank-hash", "-n", "8", "-f", "-0.1", NULL);
  expect_usage_error("-f", "tree", "-a", "rank-hash", "-n", "8", "--f=-0.1", NULL);
}
END_TEST

START_TEST(test_fraction_not_a_number)
{
  expect_usage_error("half", "tree", "-a", "rank-hash", "-n", "8", "-f", "half", NULL);
}
END_TEST

START_TEST(test_zero_colours)
{
  expect_usage_error("--colors", "tree", "-a", "rank-hash-split", "-n", "8", "--colors", "0", NULL);
}
END_TEST

START_TEST(test_colours_for_single_group_algorithm)
{
  expect_usage_error("--colors", "tree", "-a", "rank-hash", "-n", "8", "--colors", "2", NULL);
  expect_usage_error("--colors", "tree", "-a", "centralized", "-n", "8", "--colors", "2", NULL);
}
END_TEST

START_TEST(test_n_larger_than_torus)
{
  /* 2x2x2 nodes x 4 cores = 32 slots */
  expect_usage_error("32", "tree", "-a", "rank-hash", "-n", "33", "--torus", "2x2x2", "--cores", "4", NULL);
}
END_TEST

START_TEST(test_zero_ranks)
{
  expect_usage_error("-n", "tree", "-a", "rank-hash", "-n", "0", NULL);
}
END_TEST

START_TEST(test_malformed_torus)
{
  static const char *const shapes[] = {"2x2", "1x2x2", "2x2x2x2", "axbxc", "2x2x", "", "2x-2x2"};
  for (size_t i = 0; i < G_N_ELEMENTS(shapes); i++)
    expect_usage_error("--torus", "tree", "-a", "rank-hash", "-n", "8", "--torus", shapes[i], NULL);
}
END_TEST

START_TEST(test_malformed_platform_xml)
{
  char *bad = harness_write_file(tmpdir, "bad.xml",
                                 "<?xml version='1.0'?>\n<platform version=\"4.1\">\n  <zone id=\"z\"\n");
  expect_usage_error("bad.xml", "tree", "-a", "rank-hash", "-n", "8", "--platform", bad, NULL);
  g_free(bad);
  char *wrong_root = harness_write_file(tmpdir, "notplatform.xml", "<?xml version='1.0'?>\n<foo/>\n");
  expect_usage_error("notplatform.xml", "tree", "-a", "rank-hash", "-n", "8", "--platform", wrong_root, NULL);
  g_free(wrong_root);
}
END_TEST

/* Well-formed XML rooted at <platform> that SimGrid itself rejects: no
 * DOCTYPE, an unknown element, a bad attribute value, no host at all.  Bad
 * input like any other: exit 2 with a message naming the file, no crash.
 * (SimGrid prints its own diagnostics, so one line is not required.) */
START_TEST(test_platform_rejected_by_simgrid)
{
  static const struct { const char *name, *text; } files[] = {
    {"no-doctype.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                       "<zone id=\"z\" routing=\"Full\"><host id=\"h\" speed=\"1Gf\"/></zone>\n</platform>\n"},
    {"unknown-element.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                            "<platform version=\"4.1\">\n<foo/>\n</platform>\n"},
    {"bad-speed.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                      "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">"
                      "<host id=\"h\" speed=\"fast\"/></zone>\n</platform>\n"},
    {"no-host.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                    "<platform version=\"4.1\">\n</platform>\n"},
  };
  GString *failures = g_string_new(NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    char *path = harness_write_file(tmpdir, files[i].name, files[i].text);
    harness_result r;
    harness_runl(&r, "tree", "-a", "rank-hash", "-n", "4", "-q", "--platform", path, NULL);
    if (r.exit_status != 2 || !strstr(r.err, files[i].name))
      g_string_append_printf(failures, "  %s: exit status %d, signal %d\n", files[i].name, r.exit_status,
                             r.term_signal);
    harness_result_clear(&r);
    g_free(path);
  }
  ck_assert_msg(failures->len == 0, "platform files not reported as bad input:\n%s", failures->str);
  g_string_free(failures, TRUE);
}
END_TEST

/* A platform that SimGrid accepts, to show the files above fail for their
 * content only. */
START_TEST(test_platform_file_accepted)
{
  char *path = harness_write_file(tmpdir, "one-host.xml",
                                  "<?xml version='1.0'?>\n"
                                  "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                                  "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">"
                                  "<host id=\"h\" speed=\"1Gf\"/></zone>\n</platform>\n");
  harness_result r;
  harness_runl(&r, "tree", "-a", "rank-hash", "-n", "4", "-q", "--platform", path, "--format", "json", NULL);
  ck_assert_msg(r.exit_status == 0, "exit status %d; stderr:\n%s", r.exit_status, r.err);
  gboolean verified = FALSE;
  ck_assert(harness_json_bool(r.out, "verified", &verified) && verified);
  harness_result_clear(&r);
  /* 4 cores on one host: n = 5 does not fit */
  const char *const too_many[] = {"tree", "-a", "rank-hash", "-n", "5", "--platform", path, NULL};
  expect_bad_input(TRUE, "larger", too_many);
  g_free(path);
}
END_TEST

START_TEST(test_missing_platform_file)
{
  char *missing = harness_path(tmpdir, "missing-platform.xml");
  expect_usage_error("missing-platform.xml", "tree", "-a", "rank-hash", "-n", "8", "--platform", missing, NULL);
  g_free(missing);
}
END_TEST

START_TEST(test_missing_members_file)
{
  char *missing = harness_path(tmpdir, "missing-members.txt");
  expect_usage_error("missing-members.txt", "tree", "-a", "rank-hash", "-n", "8", "--members", missing, NULL);
  g_free(missing);
}
END_TEST

/* A file of mode 0: refused (root too: the run is stripped of the
 * capabilities that would read it anyway, harness_obey_file_modes), and
 * the same file made readable is accepted, so it was the mode. */
START_TEST(test_unreadable_members_file)
{
  char *path = harness_write_file(tmpdir, "secret.txt", "1 2 3\n");
  ck_assert_int_eq(chmod(path, 0), 0);
  harness_obey_file_modes(TRUE);
  expect_usage_error("secret.txt", "tree", "-a", "rank-hash", "-n", "8", "--members", path, NULL);
  ck_assert_int_eq(chmod(path, 0644), 0);
  harness_result r;
  harness_runl(&r, "tree", "-a", "rank-hash", "-n", "8", "--members", path, "-q", NULL);
  harness_obey_file_modes(FALSE);
  ck_assert_msg(r.exit_status == 0, "readable members file refused: %s", r.err);
  harness_result_clear(&r);
  g_free(path);
}
END_TEST

/* A directory passes access(R_OK) but cannot be read as a file. */
START_TEST(test_members_file_is_a_directory)
{
  char *dir = harness_path(tmpdir, "members-dir");
  ck_assert_int_eq(g_mkdir(dir, 0755), 0);
  expect_usage_error("members-dir", "tree", "-a", "rank-hash", "-n", "8", "--members", dir, NULL);
  g_free(dir);
}
END_TEST

START_TEST(test_platform_file_is_a_directory)
{
  char *dir = harness_path(tmpdir, "platform-dir");
  ck_assert_int_eq(g_mkdir(dir, 0755), 0);
  expect_usage_error("platform-dir", "tree", "-a", "rank-hash", "-n", "8", "--platform", dir, NULL);
  g_free(dir);
}
END_TEST

START_TEST(test_members_rank_out_of_range)
{
  char *path = harness_write_file(tmpdir, "members.txt", "1\n2\n8\n");
  expect_usage_error("line 3", "tree", "-a", "rank-hash", "-n", "8", "--members", path, NULL);
  g_free(path);
}
END_TEST

START_TEST(test_members_garbage)
{
  char *path = harness_write_file(tmpdir, "members.txt", "1, 2\nthree\n");
  expect_usage_error("line 2", "tree", "-a", "rank-hash", "-n", "8", "--members", path, NULL);
  g_free(path);
}
END_TEST

START_TEST(test_existing_out_untouched_on_bad_input)
{
  char *path = harness_write_file(tmpdir, "keep.csv", "precious\n");
  harness_result r;
  harness_runl(&r, "tree", "-a", "rank-hash", "-n", "8", "-k", "1", "-q", "--out", path, NULL);
  ck_assert_int_eq(r.exit_status, 2);
  char *text = harness_read_file(path);
  ck_assert_str_eq(text, "precious\n");
  g_free(text);
  harness_result_clear(&r);
  g_free(path);
}
END_TEST

/* Bad input writes nothing, the message trace included. */
START_TEST(test_trace_not_written_on_bad_input)
{
  char *bad = harness_write_file(tmpdir, "bad.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone\n");
  char *trace = harness_path(tmpdir, "trace.csv");
  harness_result r;
  harness_runl(&r, "tree", "-a", "rank-hash", "-n", "8", "-q", "--platform", bad, "--trace", trace, NULL);
  ck_assert_int_eq(r.exit_status, 2);
  ck_assert_msg(!g_file_test(trace, G_FILE_TEST_EXISTS), "%s was created on bad input", trace);
  harness_result_clear(&r);
  g_free(trace);
  g_free(bad);
}
END_TEST

START_TEST(test_unknown_format)
{
  expect_usage_error("bogus", "tree", "-a", "rank-hash", "-n", "8", "--format", "bogus", NULL);
}
END_TEST

START_TEST(test_unknown_command)
{
  harness_result r;
  harness_runl(&r, "frobnicate", NULL);
  ck_assert_int_eq(r.exit_status, 2);
  ck_assert_msg(strstr(r.err, "frobnicate") != NULL, "stderr:\n%s", r.err);
  harness_result_clear(&r);
}
END_TEST

START_TEST(test_platform_malformed_torus)
{
  harness_result r;
  harness_runl(&r, "platform", "--torus", "2x2", NULL);
  ck_assert_int_eq(r.exit_status, 2);
  ck_assert_int_eq(harness_count_lines(r.err), 1);
  ck_assert_msg(strstr(r.err, "--torus") != NULL, "stderr:\n%s", r.err);
  ck_assert_str_eq(r.out, "");
  harness_result_clear(&r);
}
END_TEST

/* ---------------------------------------------------------- good input ---- */

/* Run collsim with args and expect success; returns stdout (caller frees). */
static char *run_ok(const char *first, ...) G_GNUC_NULL_TERMINATED;
static char *run_ok(const char *first, ...)
{
  GPtrArray *args = g_ptr_array_new();
  va_list ap;
  va_start(ap, first);
  for (const char *s = first; s; s = va_arg(ap, const char *))
    g_ptr_array_add(args, (gpointer)s);
  va_end(ap);
  g_ptr_array_add(args, NULL);
  harness_result r;
  harness_run(&r, (const char *const *)args->pdata);
  g_ptr_array_free(args, TRUE);
  ck_assert_msg(r.exit_status == 0, "exit status %d (signal %d); stderr:\n%s", r.exit_status, r.term_signal,
                r.err);
  char *out = r.out;
  r.out = NULL;
  harness_result_clear(&r);
  return out;
}

/* `tree --list` names every registered construction once, under a header. */
START_TEST(test_list_names_every_algorithm)
{
  char *out = run_ok("tree", "--list", NULL);
  char **lines = g_strsplit(out, "\n", -1);
  for (int i = 0; i < cs_tree_algo_count; i++) {
    const char *name = cs_tree_algos[i].name;
    int found = 0;
    for (char **l = lines; *l; l++) {
      char **cols = g_strsplit_set(*l, " \t", 2);
      found += cols[0] && strcmp(cols[0], name) == 0;
      g_strfreev(cols);
    }
    ck_assert_msg(found == 1, "'%s' listed %d times:\n%s", name, found, out);
  }
  ck_assert_msg(harness_count_lines(out) == 1 + cs_tree_algo_count, "expected a header and %d lines:\n%s",
                cs_tree_algo_count, out);
  g_strfreev(lines);
  g_free(out);
}
END_TEST

START_TEST(test_json_has_all_keys_and_verifies)
{
  static const char *const keys[] = {"algo", "n", "m", "f", "k", "colors", "seed", "sim_time_s", "messages",
                                     "messages_bracketed", "bytes", "max_message_bytes", "peak_mem_words_max",
                                     "peak_mem_words_mean", "verified", "wall_s"};
  char *out = run_ok("tree", "-a", "rank-hash", "-n", "64", "-f", "0.5", "-k", "3", "--seed", "9", "--format",
                     "json", "-q", NULL);
  ck_assert_msg(harness_count_lines(out) == 1, "not one line:\n%s", out);
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
    ck_assert_msg(harness_json_has(out, keys[i]), "key '%s' missing:\n%s", keys[i], out);
  gboolean verified = FALSE;
  ck_assert(harness_json_bool(out, "verified", &verified));
  ck_assert(verified);
  gint64 n = 0, m = -1, k = 0, seed = 0, messages = 0, bracketed = 0, bytes = 0, maxb = 0, peak = 0;
  ck_assert(harness_json_int(out, "n", &n) && n == 64);
  ck_assert(harness_json_int(out, "k", &k) && k == 3);
  ck_assert(harness_json_int(out, "seed", &seed) && seed == 9);
  ck_assert(harness_json_int(out, "m", &m) && m > 0 && m < 64);
  ck_assert(harness_json_int(out, "messages", &messages) && messages > 0);
  ck_assert(harness_json_int(out, "messages_bracketed", &bracketed) && bracketed > messages);
  ck_assert(harness_json_int(out, "bytes", &bytes) && bytes > 0);
  ck_assert(harness_json_int(out, "max_message_bytes", &maxb) && maxb > 0 && maxb <= bytes);
  ck_assert(harness_json_int(out, "peak_mem_words_max", &peak) && peak > 0);
  double f = 0, mean = -1, sim = 0;
  ck_assert(harness_json_double(out, "f", &f) && f == 0.5);
  ck_assert(harness_json_double(out, "peak_mem_words_mean", &mean) && mean > 0 && mean <= (double)peak);
  ck_assert(harness_json_double(out, "sim_time_s", &sim) && sim > 0);
  g_free(out);
}
END_TEST

/* CSV text with the last column of every line removed. */
static char *strip_last_column(const char *csv)
{
  GString *s = g_string_new(NULL);
  char **lines = g_strsplit(csv, "\n", -1);
  for (char **l = lines; *l; l++) {
    if (**l == '\0')
      continue;
    const char *comma = strrchr(*l, ',');
    ck_assert_ptr_nonnull(comma);
    g_string_append_len(s, *l, comma - *l);
    g_string_append_c(s, '\n');
  }
  g_strfreev(lines);
  return g_string_free(s, FALSE);
}

static char *csv_run(const char *algo, const char *seed)
{
  return run_ok("tree", "-a", algo, "-n", "64", "-f", "0.5", "--seed", seed, "--format", "csv", "-q", NULL);
}

START_TEST(test_identical_runs_identical_csv)
{
  static const char *const algos[] = {"rank-hash", "centralized"};
  for (size_t i = 0; i < G_N_ELEMENTS(algos); i++) {
    char *a = csv_run(algos[i], "9"), *b = csv_run(algos[i], "9");
    ck_assert_msg(harness_count_lines(a) == 2, "expected a header and one row:\n%s", a);
    ck_assert_msg(g_str_has_prefix(a, "algo,") && strstr(a, ",wall_s\n") != NULL, "header:\n%s", a);
    char *sa = strip_last_column(a), *sb = strip_last_column(b);
    ck_assert_msg(strcmp(sa, sb) == 0, "%s: runs differ:\n%s\n%s", algos[i], sa, sb);
    g_free(sa);
    g_free(sb);
    g_free(a);
    g_free(b);
  }
}
END_TEST

START_TEST(test_other_seed_other_result)
{
  char *a = run_ok("tree", "-a", "rank-hash", "-n", "64", "-f", "0.5", "--seed", "9", "--format", "json", "-q",
                   NULL);
  char *b = run_ok("tree", "-a", "rank-hash", "-n", "64", "-f", "0.5", "--seed", "10", "--format", "json", "-q",
                   NULL);
  gint64 ma, mb, ca, cb, ba, bb;
  ck_assert(harness_json_int(a, "m", &ma) && harness_json_int(b, "m", &mb));
  ck_assert(harness_json_int(a, "messages", &ca) && harness_json_int(b, "messages", &cb));
  ck_assert(harness_json_int(a, "bytes", &ba) && harness_json_int(b, "bytes", &bb));
  ck_assert_msg(ma != mb || ca != cb || ba != bb, "seeds 9 and 10 give the same m, messages and bytes:\n%s%s", a,
                b);
  g_free(a);
  g_free(b);
}
END_TEST

START_TEST(test_members_file_sets_m)
{
  char *path = harness_write_file(tmpdir, "members.txt", "# six ranks\n0, 5, 9\n17 33\n\n60\n");
  char *out = run_ok("tree", "-a", "rank-hash", "-n", "64", "--members", path, "--format", "json", "-q", NULL);
  gint64 m = -1;
  gboolean verified = FALSE;
  ck_assert(harness_json_int(out, "m", &m));
  ck_assert_int_eq(m, 6);
  ck_assert(harness_json_bool(out, "verified", &verified) && verified);
  g_free(out);
  g_free(path);
}
END_TEST

START_TEST(test_multicolour_run_verifies)
{
  char *out = run_ok("tree", "-a", "rank-hash-split", "-n", "48", "-f", "0.7", "--colors", "3", "--format",
                     "json", "-q", NULL);
  gint64 colors = 0;
  gboolean verified = FALSE;
  ck_assert(harness_json_int(out, "colors", &colors) && colors == 3);
  ck_assert(harness_json_bool(out, "verified", &verified) && verified);
  g_free(out);
}
END_TEST

START_TEST(test_n_equal_to_torus_fits)
{
  char *out = run_ok("tree", "-a", "centralized", "-n", "32", "--torus", "2x2x2", "--cores", "4", "--format",
                     "json", "-q", NULL);
  gint64 n = 0;
  ck_assert(harness_json_int(out, "n", &n) && n == 32);
  g_free(out);
}
END_TEST

START_TEST(test_platform_prints_torus_xml)
{
  char *out = run_ok("platform", "--torus", "2x2x2", NULL);
  ck_assert_msg(strstr(out, "topology=\"TORUS\"") != NULL, "no TORUS topology:\n%s", out);
  ck_assert_msg(strstr(out, "<platform") != NULL && strstr(out, "</platform>") != NULL, "not a platform:\n%s",
                out);
  g_free(out);
}
END_TEST

START_TEST(test_platform_out_matches_stdout)
{
  char *path = harness_path(tmpdir, "torus.xml");
  char *printed = run_ok("platform", "--torus", "2x2x4", NULL);
  char *silent = run_ok("platform", "--torus", "2x2x4", "--out", path, NULL);
  ck_assert_str_eq(silent, "");
  char *written = harness_read_file(path);
  ck_assert_ptr_nonnull(written);
  ck_assert_str_eq(written, printed);
  g_free(written);
  g_free(silent);
  g_free(printed);
  g_free(path);
}
END_TEST

START_TEST(test_out_writes_file_and_nothing_on_stdout)
{
  char *path = harness_path(tmpdir, "result.csv");
  ck_assert(g_file_set_contents(path, "old content that must go away\n", -1, NULL));
  char *out = run_ok("tree", "-a", "rank-hash", "-n", "64", "-f", "0.5", "--seed", "9", "--format", "csv", "-q",
                     "--out", path, NULL);
  ck_assert_msg(out[0] == '\0', "stdout not empty:\n%s", out);
  char *written = harness_read_file(path);
  ck_assert_ptr_nonnull(written);
  char *printed = csv_run("rank-hash", "9");
  char *sw = strip_last_column(written), *sp = strip_last_column(printed);
  ck_assert_msg(strcmp(sw, sp) == 0, "file and stdout differ:\n%s\n%s", sw, sp);
  /* atomic replacement leaves no temporary file behind */
  ck_assert_int_eq(tmpdir_entries(), 1);
  g_free(sw);
  g_free(sp);
  g_free(printed);
  g_free(written);
  g_free(out);
  g_free(path);
}
END_TEST

/* The last two CSV fields of a --with-config row: config_args and
 * config_key (the row is line 2; config_args has no comma). */
static void config_of(const char *csv, char **args, char **key)
{
  char **lines = g_strsplit(csv, "\n", 3);
  ck_assert_ptr_nonnull(lines[1]);
  char **f = g_strsplit(lines[1], ",", -1);
  guint n = g_strv_length(f);
  ck_assert_uint_ge(n, 3);
  *args = g_strdup(f[n - 3]);
  *key = g_strdup(f[n - 1]);
  g_strfreev(f);
  g_strfreev(lines);
}

/* Options that only say where and how results go (the output group, and
 * every option that writes a file) are no part of the configuration: the
 * same run with --trace, --out and without --quiet has the same
 * config_args and config_key, and another seed has another key. */
START_TEST(test_output_options_not_in_config)
{
  char *path = harness_path(tmpdir, "result.csv"), *trace = harness_path(tmpdir, "t.csv");
  char *plain = run_ok("tree", "-a", "rank-hash", "-n", "16", "-f", "1", "-k", "2", "--seed", "3", "--format", "csv",
                       "--with-config", "-q", NULL);
  char *out = run_ok("tree", "-a", "rank-hash", "-n", "16", "-f", "1", "-k", "2", "--seed", "3", "--format", "csv",
                     "--with-config", "--trace", trace, "--out", path, NULL);
  char *other = run_ok("tree", "-a", "rank-hash", "-n", "16", "-f", "1", "-k", "2", "--seed", "4", "--format",
                       "csv", "--with-config", "-q", NULL);
  char *written = harness_read_file(path);
  ck_assert_ptr_nonnull(written);
  char *a1, *k1, *a2, *k2, *a3, *k3;
  config_of(plain, &a1, &k1);
  config_of(written, &a2, &k2);
  config_of(other, &a3, &k3);
  ck_assert_str_eq(a1, "tree --algo=rank-hash --f=1 --k=2 --n=16 --seed=3");
  ck_assert_str_eq(a2, a1);
  ck_assert_str_eq(k2, k1);
  ck_assert_str_ne(k3, k1);
  g_free(a1), g_free(k1), g_free(a2), g_free(k2), g_free(a3), g_free(k3);
  g_free(plain), g_free(out), g_free(other), g_free(written), g_free(path), g_free(trace);
}
END_TEST

/* --out makes the folders it needs (after the run: a failed run makes none). */
START_TEST(test_out_into_missing_directory_makes_it)
{
  char *path = harness_path(tmpdir, "no-such-dir/deeper/result.csv");
  harness_result r;
  harness_runl(&r, "tree", "-a", "rank-hash", "-n", "16", "-q", "--format", "csv", "--out", path, NULL);
  ck_assert_msg(r.exit_status == 0, "exit %d: %s", r.exit_status, r.err);
  ck_assert_msg(g_file_test(path, G_FILE_TEST_IS_REGULAR), "%s was not written", path);
  harness_result_clear(&r);
  char *dir = harness_path(tmpdir, "no-such-dir/deeper"), *top = harness_path(tmpdir, "no-such-dir");
  g_unlink(path);
  g_rmdir(dir);
  g_rmdir(top);
  char *bad = harness_path(tmpdir, "other-dir/result.csv");
  harness_runl(&r, "tree", "-a", "no-such-algo", "-n", "16", "-q", "--out", bad, NULL);
  ck_assert_int_eq(r.exit_status, 2);
  ck_assert_msg(!g_file_test(top, G_FILE_TEST_EXISTS), "a failed run made a folder");
  char *other = harness_path(tmpdir, "other-dir");
  ck_assert_msg(!g_file_test(other, G_FILE_TEST_EXISTS), "a failed run made a folder");
  harness_result_clear(&r);
  g_free(other);
  g_free(bad);
  g_free(dir);
  g_free(top);
  g_free(path);
}
END_TEST

static Suite *cli_suite(void)
{
  Suite *s = suite_create("cli");
  TCase *bad = tcase_create("bad-input");
  tcase_set_timeout(bad, 120);
  tcase_add_unchecked_fixture(bad, setup_case, teardown_case);
  tcase_add_checked_fixture(bad, setup_tmp, teardown_tmp);
  tcase_add_test(bad, test_unknown_option);
  tcase_add_test(bad, test_unknown_algorithm);
  tcase_add_test(bad, test_missing_algorithm);
  tcase_add_test(bad, test_degree_one);
  tcase_add_test(bad, test_fraction_above_one);
  tcase_add_test(bad, test_fraction_negative);
  tcase_add_test(bad, test_fraction_not_a_number);
  tcase_add_test(bad, test_zero_colours);
  tcase_add_test(bad, test_colours_for_single_group_algorithm);
  tcase_add_test(bad, test_n_larger_than_torus);
  tcase_add_test(bad, test_zero_ranks);
  tcase_add_test(bad, test_malformed_torus);
  tcase_add_test(bad, test_malformed_platform_xml);
  tcase_add_test(bad, test_platform_rejected_by_simgrid);
  tcase_add_test(bad, test_platform_file_accepted);
  tcase_add_test(bad, test_missing_platform_file);
  tcase_add_test(bad, test_missing_members_file);
  tcase_add_test(bad, test_unreadable_members_file);
  tcase_add_test(bad, test_members_file_is_a_directory);
  tcase_add_test(bad, test_platform_file_is_a_directory);
  tcase_add_test(bad, test_members_rank_out_of_range);
  tcase_add_test(bad, test_members_garbage);
  tcase_add_test(bad, test_existing_out_untouched_on_bad_input);
  tcase_add_test(bad, test_trace_not_written_on_bad_input);
  tcase_add_test(bad, test_unknown_format);
  tcase_add_test(bad, test_unknown_command);
  tcase_add_test(bad, test_platform_malformed_torus);
  suite_add_tcase(s, bad);
  TCase *good = tcase_create("good-input");
  tcase_set_timeout(good, 120);
  tcase_add_unchecked_fixture(good, setup_case, teardown_case);
  tcase_add_checked_fixture(good, setup_tmp, teardown_tmp);
  tcase_add_test(good, test_list_names_every_algorithm);
  tcase_add_test(good, test_json_has_all_keys_and_verifies);
  tcase_add_test(good, test_identical_runs_identical_csv);
  tcase_add_test(good, test_other_seed_other_result);
  tcase_add_test(good, test_members_file_sets_m);
  tcase_add_test(good, test_multicolour_run_verifies);
  tcase_add_test(good, test_n_equal_to_torus_fits);
  tcase_add_test(good, test_platform_prints_torus_xml);
  tcase_add_test(good, test_platform_out_matches_stdout);
  tcase_add_test(good, test_out_writes_file_and_nothing_on_stdout);
  tcase_add_test(good, test_out_into_missing_directory_makes_it);
  tcase_add_test(good, test_output_options_not_in_config);
  suite_add_tcase(s, good);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(cli_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
