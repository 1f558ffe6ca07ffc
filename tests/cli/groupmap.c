/* `collsim groupmap` through the binary (seed 003, issue part 6 and 10).
 *  - Bad input: a wid outside [0, world), a duplicate, a negative or
 *    non-numeric entry, an empty or unreadable file, --world 0 or above
 *    2^31, --members without --world, unknown names: exit 2, one line, no
 *    output file.
 *  - Values (CSV, --no-times): ARRAY is 32 m bits, R/S 96 bits on a
 *    progression, BM's bitmap 64 ceil(span / 64) bits; every representation
 *    verified; the picks are there.
 *  - --unordered keeps the file's order (runs counted, wtr+X rows), without
 *    it the set is sorted.
 *  - JSON carries the documented keys.
 *  - --no-times output is byte-identical between runs. */
#include "sim/contracts/groupmap.h"
#include "tests/lib/harness.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

static char *tmpdir;

static void setup(void) { tmpdir = harness_tmpdir_new(); }

static void teardown(void)
{
  harness_tmpdir_remove(tmpdir);
  tmpdir = NULL;
}

#define expect_bad(word, ...) harness_expect_bad(tmpdir, word, "groupmap", __VA_ARGS__)

START_TEST(bad_inputs)
{
  char *outside = harness_write_file(tmpdir, "outside.txt", "0 1 64\n");
  char *dup = harness_write_file(tmpdir, "dup.txt", "0 1 2 1\n");
  char *neg = harness_write_file(tmpdir, "neg.txt", "0 -3 4\n");
  char *word = harness_write_file(tmpdir, "word.txt", "0 1 two\n");
  char *empty = harness_write_file(tmpdir, "empty.txt", "# nothing\n");
  char *ok = harness_write_file(tmpdir, "ok.txt", "0 1 2\n");
  char *missing = harness_path(tmpdir, "missing.txt");
  expect_bad("64 is outside [0, 64)", "--world", "64", "--members", outside, NULL);
  expect_bad("rank 1 listed twice", "--world", "64", "--members", dup, NULL);
  expect_bad("'-3'", "--world", "64", "--members", neg, NULL);
  expect_bad("'two'", "--world", "64", "--members", word, NULL);
  expect_bad("lists no rank", "--world", "64", "--members", empty, NULL);
  expect_bad("missing.txt", "--world", "64", "--members", missing, NULL);
  expect_bad("--world", "--world", "0", "--members", ok, NULL);
  expect_bad("--world", "--world", "2147483649", "--members", ok, NULL);
  expect_bad("--members needs --world", "--members", ok, NULL);
  expect_bad("unknown representation 'bitmap'", "--world", "64", "--members", ok, "--reps", "bitmap", NULL);
  expect_bad("unknown paper group 't9g9'", "--group", "t9g9", NULL);
  expect_bad("not both", "--paper-groups", "--members", ok, NULL);
  expect_bad("give --members", "--no-times", NULL);
  g_free(outside);
  g_free(dup);
  g_free(neg);
  g_free(word);
  g_free(empty);
  g_free(ok);
  g_free(missing);
}
END_TEST

/* The value in column `column` of the CSV line whose column "rep" is `rep`
 * (newly allocated; NULL when absent).  No quoted commas in these fields. */
static char *csv_cell(const char *csv, const char *rep, const char *column)
{
  char **lines = g_strsplit(csv, "\n", -1);
  char **head = g_strsplit(lines[0], ",", -1);
  int col = -1, rep_col = -1;
  for (int i = 0; head[i]; i++) {
    if (strcmp(head[i], column) == 0)
      col = i;
    if (strcmp(head[i], "rep") == 0)
      rep_col = i;
  }
  char *value = NULL;
  for (int l = 1; lines[l] && !value && col >= 0 && rep_col >= 0; l++) {
    char **cells = g_strsplit(lines[l], ",", -1);
    if ((int)g_strv_length(cells) > MAX(col, rep_col) && strcmp(cells[rep_col], rep) == 0)
      value = g_strdup(cells[col]);
    g_strfreev(cells);
  }
  g_strfreev(head);
  g_strfreev(lines);
  return value;
}

static void assert_cell(const char *csv, const char *rep, const char *column, const char *want)
{
  char *got = csv_cell(csv, rep, column);
  ck_assert_msg(got && strcmp(got, want) == 0, "%s.%s = %s, expected %s", rep, column, got ? got : "(absent)", want);
  g_free(got);
}

static void run_csv(harness_result *r, const char *members, gboolean unordered)
{
  harness_runl(r, "groupmap", "--world", "4096", "--members", members, "--no-times", "--format", "csv", "-q",
               unordered ? "--unordered" : NULL, NULL);
  ck_assert_msg(r->exit_status == 0, "%s", r->err);
}

START_TEST(progression_values)
{
  GString *text = g_string_new("# 0, 3, ..., 3000\n");
  for (int w = 3000; w >= 0; w -= 3) /* listed backwards: sorted unless --unordered */
    g_string_append_printf(text, "%d%s", w, w % 30 == 0 ? "\n" : ", ");
  char *path = harness_write_file(tmpdir, "prog.txt", text->str);
  harness_result r;
  run_csv(&r, path, FALSE);
  assert_cell(r.out, "array", "m", "1001");
  assert_cell(r.out, "array", "ordered", "true");
  assert_cell(r.out, "array", "runs", "1");
  assert_cell(r.out, "array", "bits", "32032");
  assert_cell(r.out, "rs", "bits", "96");
  assert_cell(r.out, "bm", "bitmap_bits", "3008"); /* span 3001 -> 47 words of 64 */
  assert_cell(r.out, "array", "picks.ST", "rs");
  for (size_t i = 0; i < cs_gm_rep_count(); i++) /* every registered representation */
    assert_cell(r.out, cs_gm_rep_at(i)->name, "verified", "true");
  harness_result_clear(&r);
  g_string_free(text, TRUE);
  g_free(path);
}
END_TEST

START_TEST(unordered_keeps_file_order)
{
  char *path = harness_write_file(tmpdir, "perm.txt", "5 1 2 3 0 # three runs: 5 | 1 2 3 | 0\n");
  harness_result r;
  run_csv(&r, path, TRUE);
  assert_cell(r.out, "array", "ordered", "false");
  assert_cell(r.out, "array", "runs", "3");
  assert_cell(r.out, "wtr+bm", "wtr_runs", "3");
  /* the set {0, 1, 2, 3, 5} is no progression: */
  char *failed = csv_cell(r.out, "wtr+rs", "failed");
  ck_assert_msg(failed && strstr(failed, "progression"), "wtr+rs failed: %s", failed ? failed : "(absent)");
  g_free(failed);
  const char *reps[] = {"array", "bwt", "wtr+bm", "wtr+bdd", "wtr+ef", "wtr+roaring", "wtr+array"};
  for (size_t i = 0; i < G_N_ELEMENTS(reps); i++)
    assert_cell(r.out, reps[i], "verified", "true");
  harness_result_clear(&r);
  run_csv(&r, path, FALSE);
  assert_cell(r.out, "array", "ordered", "true");
  assert_cell(r.out, "array", "runs", "1");
  harness_result_clear(&r);
  g_free(path);
}
END_TEST

START_TEST(json_keys)
{
  char *path = harness_write_file(tmpdir, "g.txt", "1,4,9,16,25,36,49,64,81,100\n");
  harness_result r;
  harness_runl(&r, "groupmap", "--world", "128", "--members", path, "--format", "json", "--samples", "10", "-q",
               NULL);
  ck_assert_msg(r.exit_status == 0, "%s", r.err);
  ck_assert_int_eq(harness_count_lines(r.out), 1);
  const char *keys[] = {"\"world\": 128", "\"m\": 10", "\"ordered\": true", "\"runs\": 1", "\"reps\": {",
                        "\"bm\": {", "\"bitmap_bits\": ", "\"directory_bits\": ", "\"bdd\": {", "\"paths\": 10",
                        "\"bpg\": ", "\"create_ms\": ", "\"select_all_ms\": ", "\"select_one_us\": ",
                        "\"failed\": null", "\"failed\": \"", "\"picks\": {\"S\": ", "\"T\": ", "\"ST\": "};
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
    ck_assert_msg(strstr(r.out, keys[i]), "no %s in %s", keys[i], r.out);
  harness_result_clear(&r);
  g_free(path);
}
END_TEST

START_TEST(deterministic_without_times)
{
  harness_result a, b;
  harness_runl(&a, "groupmap", "--group", "t1g7,t2g4-stride", "--no-times", "--format", "csv", "-q", NULL);
  harness_runl(&b, "groupmap", "--group", "t1g7", "--group", "t2g4-stride", "--no-times", "--format", "csv", "-q", NULL);
  ck_assert_msg(a.exit_status == 0, "%s", a.err);
  ck_assert_str_eq(a.out, b.out);
  assert_cell(a.out, "array", "m", "10000"); /* t1g7's rows come first */
  harness_result_clear(&a);
  harness_result_clear(&b);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("cli_groupmap");
  TCase *tc = tcase_create("groupmap");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, bad_inputs);
  tcase_add_test(tc, progression_values);
  tcase_add_test(tc, unordered_keeps_file_order);
  tcase_add_test(tc, json_keys);
  tcase_add_test(tc, deterministic_without_times);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
