/* Unit tests of the parent-group membership (sim/drivers/members.c, sim/contracts/prng.h):
 *  - the draw is a function of (seed, rank): same seed, byte-identical arrays;
 *    different seeds differ; membership does not depend on the colour count
 *    or rule; the totals m and m_color agree with the array;
 *  - f = 0 gives no member, f = 1 everyone; f = 0.3 over 100000 ranks lands
 *    within 0.01 of 0.3;
 *  - colours: rank % C under the mod rule; within [0, C) and roughly balanced
 *    under the random rule;
 *  - members files: comments, commas, blank lines, CRLF parsed exactly; an
 *    out-of-range rank, a garbage token, a duplicate, a missing file give NULL
 *    and a GError naming the line (or the file). */
#include "sim/drivers/members.h"
#include "sim/contracts/prng.h"
#include "sim/engine/sg_engine.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Members and per-colour totals agree with the colour array. */
static void assert_consistent(const cs_group *g)
{
  int64_t m = 0;
  int64_t *per = g_new0(int64_t, g->colors);
  for (int r = 0; r < g->n; r++) {
    int c = g->color[r];
    if (c == -1)
      continue;
    if (c < 0 || c >= g->colors)
      ck_abort_msg("rank %d has colour %d, outside [0, %d)", r, c, g->colors);
    m++;
    per[c]++;
  }
  ck_assert_int_eq(g->m, m);
  for (int c = 0; c < g->colors; c++)
    ck_assert_int_eq(g->m_color[c], per[c]);
  g_free(per);
}

/* ---------------------------------------------------------------- draw ---- */

START_TEST(test_same_seed_same_group)
{
  cs_group *a = cs_group_draw(10000, 0.5, 3, CS_COLOR_RANDOM, 42);
  cs_group *b = cs_group_draw(10000, 0.5, 3, CS_COLOR_RANDOM, 42);
  ck_assert_int_eq(a->m, b->m);
  ck_assert(memcmp(a->color, b->color, 10000 * sizeof *a->color) == 0);
  ck_assert(memcmp(a->m_color, b->m_color, 3 * sizeof *a->m_color) == 0);
  assert_consistent(a);
  cs_group_free(a);
  cs_group_free(b);
}
END_TEST

START_TEST(test_different_seeds_differ)
{
  for (uint64_t seed = 1; seed < 6; seed++) {
    cs_group *a = cs_group_draw(10000, 0.5, 1, CS_COLOR_MOD, seed);
    cs_group *b = cs_group_draw(10000, 0.5, 1, CS_COLOR_MOD, seed + 1);
    ck_assert_msg(memcmp(a->color, b->color, 10000 * sizeof *a->color) != 0, "seeds %llu and %llu agree",
                  (unsigned long long)seed, (unsigned long long)seed + 1);
    cs_group_free(a);
    cs_group_free(b);
  }
}
END_TEST

START_TEST(test_draw_matches_member_draw)
{
  cs_group *g = cs_group_draw(5000, 0.6, 1, CS_COLOR_MOD, 9);
  for (int r = 0; r < 5000; r++)
    if ((g->color[r] >= 0) != (cs_member_draw(9, r, 0.6) != 0))
      ck_abort_msg("rank %d: group and cs_member_draw disagree", r);
  cs_group_free(g);
}
END_TEST

START_TEST(test_membership_independent_of_colours)
{
  cs_group *one = cs_group_draw(8000, 0.4, 1, CS_COLOR_MOD, 5);
  cs_group *many = cs_group_draw(8000, 0.4, 7, CS_COLOR_RANDOM, 5);
  ck_assert_int_eq(one->m, many->m);
  for (int r = 0; r < 8000; r++)
    if ((one->color[r] >= 0) != (many->color[r] >= 0))
      ck_abort_msg("rank %d joins with 1 colour but not with 7 (or the reverse)", r);
  cs_group_free(one);
  cs_group_free(many);
}
END_TEST

START_TEST(test_f_zero_gives_no_member)
{
  cs_group *g = cs_group_draw(10000, 0.0, 2, CS_COLOR_MOD, 3);
  ck_assert_int_eq(g->m, 0);
  for (int r = 0; r < g->n; r++)
    if (g->color[r] != -1)
      ck_abort_msg("rank %d joins with f = 0", r);
  assert_consistent(g);
  cs_group_free(g);
}
END_TEST

START_TEST(test_f_one_gives_everyone)
{
  cs_group *g = cs_group_draw(10000, 1.0, 1, CS_COLOR_MOD, 3);
  ck_assert_int_eq(g->m, 10000);
  for (int r = 0; r < g->n; r++)
    if (g->color[r] != 0)
      ck_abort_msg("rank %d has colour %d with f = 1", r, g->color[r]);
  cs_group_free(g);
}
END_TEST

START_TEST(test_fraction_close_to_f)
{
  for (uint64_t seed = 1; seed <= 3; seed++) {
    cs_group *g = cs_group_draw(100000, 0.3, 1, CS_COLOR_MOD, seed);
    double frac = (double)g->m / 100000.0;
    ck_assert_msg(fabs(frac - 0.3) < 0.01, "seed %llu: fraction %.4f", (unsigned long long)seed, frac);
    assert_consistent(g);
    cs_group_free(g);
  }
}
END_TEST

START_TEST(test_zero_ranks)
{
  cs_group *g = cs_group_draw(0, 0.5, 1, CS_COLOR_MOD, 1);
  ck_assert_int_eq(g->n, 0);
  ck_assert_int_eq(g->m, 0);
  cs_group_free(g);
}
END_TEST

START_TEST(test_uniform_in_unit_interval)
{
  double sum = 0;
  for (uint64_t r = 0; r < 100000; r++) {
    double u = cs_uniform(17, r, 0);
    if (!(u >= 0.0 && u < 1.0))
      ck_abort_msg("u(17, %llu, 0) = %g", (unsigned long long)r, u);
    sum += u;
  }
  ck_assert_msg(fabs(sum / 100000 - 0.5) < 0.01, "mean %g", sum / 100000);
  ck_assert(cs_uniform(17, 5, 0) != cs_uniform(17, 5, 1)); /* streams differ */
}
END_TEST

/* ------------------------------------------------------------- colours ---- */

START_TEST(test_mod_rule_is_rank_mod_colors)
{
  cs_group *g = cs_group_draw(9999, 0.7, 5, CS_COLOR_MOD, 11);
  for (int r = 0; r < g->n; r++)
    if (g->color[r] >= 0 && g->color[r] != r % 5)
      ck_abort_msg("rank %d has colour %d, not %d", r, g->color[r], r % 5);
  assert_consistent(g);
  cs_group_free(g);
}
END_TEST

START_TEST(test_random_rule_in_range_and_balanced)
{
  const int n = 100000, C = 4;
  cs_group *g = cs_group_draw(n, 1.0, C, CS_COLOR_RANDOM, 23);
  assert_consistent(g);
  for (int c = 0; c < C; c++)
    ck_assert_msg(fabs((double)g->m_color[c] / n - 1.0 / C) < 0.01, "colour %d has %lld of %d", c,
                  (long long)g->m_color[c], n);
  /* not simply rank mod C */
  int mod_like = 0;
  for (int r = 0; r < n; r++)
    mod_like += g->color[r] == r % C;
  ck_assert_msg(mod_like < n / 2, "%d of %d ranks have colour rank %% C", mod_like, n);
  cs_group_free(g);
}
END_TEST

START_TEST(test_random_rule_depends_on_seed_and_matches_color_draw)
{
  cs_group *a = cs_group_draw(2000, 1.0, 3, CS_COLOR_RANDOM, 1);
  cs_group *b = cs_group_draw(2000, 1.0, 3, CS_COLOR_RANDOM, 2);
  ck_assert(memcmp(a->color, b->color, 2000 * sizeof *a->color) != 0);
  for (int r = 0; r < 2000; r++)
    if (a->color[r] != cs_color_draw(1, r, 3, CS_COLOR_RANDOM))
      ck_abort_msg("rank %d: group and cs_color_draw disagree", r);
  cs_group_free(a);
  cs_group_free(b);
}
END_TEST

START_TEST(test_single_colour_random_rule_is_zero)
{
  for (int r = 0; r < 1000; r++)
    ck_assert_int_eq(cs_color_draw(4, r, 1, CS_COLOR_RANDOM), 0);
}
END_TEST

/* -------------------------------------------------------- members file ---- */

/* One directory for the test case, made and removed in the runner (an
 * unchecked fixture), so it goes away even when a test fails. */
static char *tmpdir;

static void setup_tmp(void)
{
  tmpdir = g_dir_make_tmp("check-group-XXXXXX", NULL);
  ck_assert_ptr_nonnull(tmpdir);
}

static void teardown_tmp(void)
{
  GDir *d = g_dir_open(tmpdir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name(d)) != NULL) {
    char *p = g_build_filename(tmpdir, name, NULL);
    g_remove(p);
    g_free(p);
  }
  if (d)
    g_dir_close(d);
  g_rmdir(tmpdir);
  g_free(tmpdir);
}

static char *write_members(const char *text)
{
  char *path = g_build_filename(tmpdir, "members.txt", NULL);
  ck_assert(g_file_set_contents(path, text, -1, NULL));
  return path;
}

/* The group read from text must have exactly the ranks in want[0..m). */
static void assert_members(const char *text, int n, const int *want, int m)
{
  char *path = write_members(text);
  GError *err = NULL;
  cs_group *g = cs_group_from_file(path, n, 1, CS_COLOR_MOD, 1, &err);
  ck_assert_msg(g != NULL, "rejected: %s", err ? err->message : "(no message)");
  ck_assert_ptr_null(err);
  ck_assert_int_eq(g->m, m);
  int8_t *expected = g_new0(int8_t, n);
  for (int i = 0; i < m; i++)
    expected[want[i]] = 1;
  for (int r = 0; r < n; r++)
    if ((g->color[r] >= 0) != expected[r])
      ck_abort_msg("rank %d: member %d, expected %d", r, g->color[r] >= 0, expected[r]);
  assert_consistent(g);
  g_free(expected);
  cs_group_free(g);
  g_free(path);
}

/* Reading text must fail with a message containing `want`. */
static void assert_file_error(const char *text, int n, const char *want)
{
  char *path = write_members(text);
  GError *err = NULL;
  cs_group *g = cs_group_from_file(path, n, 1, CS_COLOR_MOD, 1, &err);
  ck_assert_msg(g == NULL, "accepted:\n%s", text);
  ck_assert_ptr_nonnull(err);
  ck_assert(err->domain == CS_INPUT_ERROR);
  ck_assert_msg(strstr(err->message, want) != NULL, "message '%s' lacks '%s'", err->message, want);
  g_error_free(err);
  g_free(path);
}

START_TEST(test_file_with_comments_commas_newlines)
{
  static const int want[] = {0, 3, 5, 7, 9, 11, 63};
  assert_members("# members of the new group\n"
                 "3, 5\n"
                 "  7\t9, 11   # trailing comment 12 13\n"
                 "\n"
                 "0\n"
                 "63",
                 64, want, 7);
}
END_TEST

START_TEST(test_file_with_crlf_and_comment_glued_to_rank)
{
  static const int want[] = {1, 2, 8};
  assert_members("1\r\n2\r\n8# eight\r\n", 10, want, 3);
}
END_TEST

START_TEST(test_file_comment_may_hold_bad_numbers)
{
  static const int want[] = {4};
  assert_members("# 999 -1 4 4 abc\n4\n", 10, want, 1);
}
END_TEST

START_TEST(test_empty_file_has_no_member)
{
  assert_members("", 10, NULL, 0);
  assert_members("# nobody\n\n", 10, NULL, 0);
}
END_TEST

START_TEST(test_file_members_get_colours_by_rule)
{
  char *path = write_members("0 1 2 3 4 5 6 7 8 9\n");
  cs_group *g = cs_group_from_file(path, 10, 3, CS_COLOR_MOD, 1, NULL);
  ck_assert_ptr_nonnull(g);
  for (int r = 0; r < 10; r++)
    ck_assert_int_eq(g->color[r], r % 3);
  assert_consistent(g);
  cs_group_free(g);
  g = cs_group_from_file(path, 10, 3, CS_COLOR_RANDOM, 77, NULL);
  ck_assert_ptr_nonnull(g);
  for (int r = 0; r < 10; r++)
    ck_assert_int_eq(g->color[r], cs_color_draw(77, r, 3, CS_COLOR_RANDOM));
  cs_group_free(g);
  g_free(path);
}
END_TEST

START_TEST(test_file_rank_out_of_range)
{
  assert_file_error("1\n2\n64\n", 64, "line 3");
  assert_file_error("1\n2\n64\n", 64, "64");
  assert_file_error("# ok\n5, -1\n", 64, "line 2");
}
END_TEST

START_TEST(test_file_garbage_token)
{
  assert_file_error("1\n2x\n", 64, "line 2");
  assert_file_error("1\n2x\n", 64, "2x");
  assert_file_error("3 abc\n", 64, "line 1");
  assert_file_error("\n\n1.5\n", 64, "line 3");
}
END_TEST

/* Issue 25: "0,,1" was read as 0 and 1; a list element may not be empty. */
START_TEST(test_file_empty_element)
{
  assert_file_error("0,,1\n", 64, "line 1: an empty element (',' with no rank before it)");
  assert_file_error(",0\n", 64, "line 1: an empty element (',' with no rank before it)");
  assert_file_error("0, # a comment\n, 1\n", 64, "line 2: an empty element");
  assert_file_error("0, 1,\n", 64, "an empty element (the list ends with ',')");
}
END_TEST

START_TEST(test_file_duplicate_rank)
{
  assert_file_error("4\n5\n4\n", 64, "line 3");
  assert_file_error("4, 4\n", 64, "twice");
}
END_TEST

START_TEST(test_file_missing)
{
  char *path = g_build_filename(tmpdir, "no-such-file.txt", NULL);
  GError *err = NULL;
  cs_group *g = cs_group_from_file(path, 10, 1, CS_COLOR_MOD, 1, &err);
  ck_assert_ptr_null(g);
  ck_assert_ptr_nonnull(err);
  ck_assert_msg(strstr(err->message, "no-such-file.txt") != NULL, "message '%s' does not name the file",
                err->message);
  g_error_free(err);
  g_free(path);
}
END_TEST

static Suite *group_suite(void)
{
  Suite *s = suite_create("group");
  TCase *draw = tcase_create("draw");
  tcase_set_timeout(draw, 60);
  tcase_add_test(draw, test_same_seed_same_group);
  tcase_add_test(draw, test_different_seeds_differ);
  tcase_add_test(draw, test_draw_matches_member_draw);
  tcase_add_test(draw, test_membership_independent_of_colours);
  tcase_add_test(draw, test_f_zero_gives_no_member);
  tcase_add_test(draw, test_f_one_gives_everyone);
  tcase_add_test(draw, test_fraction_close_to_f);
  tcase_add_test(draw, test_zero_ranks);
  tcase_add_test(draw, test_uniform_in_unit_interval);
  tcase_add_test(draw, test_mod_rule_is_rank_mod_colors);
  tcase_add_test(draw, test_random_rule_in_range_and_balanced);
  tcase_add_test(draw, test_random_rule_depends_on_seed_and_matches_color_draw);
  tcase_add_test(draw, test_single_colour_random_rule_is_zero);
  suite_add_tcase(s, draw);
  TCase *file = tcase_create("members-file");
  tcase_add_unchecked_fixture(file, setup_tmp, teardown_tmp);
  tcase_add_test(file, test_file_with_comments_commas_newlines);
  tcase_add_test(file, test_file_empty_element);
  tcase_add_test(file, test_file_with_crlf_and_comment_glued_to_rank);
  tcase_add_test(file, test_file_comment_may_hold_bad_numbers);
  tcase_add_test(file, test_empty_file_has_no_member);
  tcase_add_test(file, test_file_members_get_colours_by_rule);
  tcase_add_test(file, test_file_rank_out_of_range);
  tcase_add_test(file, test_file_garbage_token);
  tcase_add_test(file, test_file_duplicate_rank);
  tcase_add_test(file, test_file_missing);
  suite_add_tcase(s, file);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(group_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
