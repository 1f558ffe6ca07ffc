/* Unit tests of the tree verifier (sim/checks/spanning_tree_verify.c) on hand-built views.
 *  - Accepted: heap-shaped trees over arbitrary member sets (height reported
 *    is the minimal one), a single member, no member at all (m = 0), several
 *    colours at once (height = the largest), a chain when the minimal height
 *    is not required.
 *  - Rejected, each with a message: a vertex with k+1 children, a child whose
 *    parent field disagrees, a child listed twice, a parent or child that is
 *    not a member, a non-member reporting membership, a member not reporting
 *    it, a wrong colour, a link across colours, two roots, no root, a cycle
 *    detached from the root with consistent links, a too-tall tree when the
 *    minimal height is required. */
#include "sim/checks/spanning_tree_verify.h"
#include "algorithms/shapes/tree_shapes.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 64

/* A view under construction: members with their links, all self-consistent
 * until a test breaks something on purpose. */
typedef struct tv {
  int n, colors;
  int32_t color[MAXN];
  int8_t reported_member[MAXN];
  int32_t reported_color[MAXN];
  int32_t parent[MAXN];
  int32_t nchildren[MAXN];
  int32_t child_buf[MAXN][MAXN];
  int32_t *children[MAXN];
} tv;

static void tv_init(tv *t, int n, int colors)
{
  memset(t, 0, sizeof *t);
  t->n = n;
  t->colors = colors;
  for (int r = 0; r < MAXN; r++) {
    t->color[r] = -1;
    t->reported_color[r] = -1;
    t->parent[r] = -1;
    t->children[r] = t->child_buf[r];
  }
}

static void tv_member(tv *t, int r, int c)
{
  t->color[r] = c;
  t->reported_member[r] = 1;
  t->reported_color[r] = c;
  t->parent[r] = -1;
}

/* Consistent link: both sides agree. */
static void tv_link(tv *t, int parent, int child)
{
  t->children[parent][t->nchildren[parent]++] = child;
  t->parent[child] = parent;
}

/* Remove child from parent's list (leaves the child's parent field alone). */
static void tv_unlist(tv *t, int parent, int child)
{
  int j = 0;
  for (int i = 0; i < t->nchildren[parent]; i++)
    if (t->children[parent][i] != child)
      t->children[parent][j++] = t->children[parent][i];
  t->nchildren[parent] = j;
}

/* Members ids[0..m) of colour c, linked as the k-ary heap over that order. */
static void tv_heap(tv *t, const int *ids, int m, int k, int c)
{
  for (int i = 0; i < m; i++)
    tv_member(t, ids[i], c);
  for (int i = 1; i < m; i++)
    tv_link(t, ids[kary_parent(i, k)], ids[i]);
}

static cs_tree_view tv_view(tv *t)
{
  cs_tree_view v = {t->n, t->colors, t->color, t->reported_member, t->reported_color,
                    t->parent, t->nchildren, t->children};
  return v;
}

static gboolean verify(tv *t, int k, gboolean minh, int *height, GString *why)
{
  cs_tree_view v = tv_view(t);
  return cs_verify_tree(&v, k, minh, height, why);
}

static void assert_accepted(tv *t, int k, gboolean minh, int want_height)
{
  GString *why = g_string_new(NULL);
  int h = -7;
  gboolean ok = verify(t, k, minh, &h, why);
  ck_assert_msg(ok, "rejected a valid tree: %s", why->str);
  ck_assert_int_eq(h, want_height);
  g_string_free(why, TRUE);
}

/* Rejected, with a message that mentions `word` (when not NULL). */
static void assert_rejected(tv *t, int k, gboolean minh, const char *word)
{
  GString *why = g_string_new(NULL);
  int h = 0;
  gboolean ok = verify(t, k, minh, &h, why);
  ck_assert_msg(!ok, "accepted a bad tree");
  ck_assert_msg(why->len > 0, "rejected without a message");
  if (word)
    ck_assert_msg(strstr(why->str, word) != NULL, "message '%s' does not mention '%s'", why->str, word);
  g_string_free(why, TRUE);
}

/* The members used by most tests: 10 of 20 ranks, in a scrambled order. */
static const int MEMBERS[] = {7, 2, 19, 11, 0, 5, 13, 16, 3, 9};
#define NMEMBERS ((int)G_N_ELEMENTS(MEMBERS))

static void valid_tree(tv *t, int k)
{
  tv_init(t, 20, 1);
  tv_heap(t, MEMBERS, NMEMBERS, k, 0);
}

/* ------------------------------------------------------------ accepted ---- */

START_TEST(test_heap_over_members_passes)
{
  for (int k = 2; k <= 5; k++) {
    tv t;
    valid_tree(&t, k);
    assert_accepted(&t, k, TRUE, kary_min_height(NMEMBERS, k));
  }
}
END_TEST

START_TEST(test_heaps_of_every_size_pass_with_their_height)
{
  for (int k = 2; k <= 4; k++) {
    for (int m = 1; m <= MAXN; m++) {
      int ids[MAXN];
      for (int i = 0; i < m; i++)
        ids[i] = (i * 37 + 11) % MAXN; /* a permutation of 0..63 */
      tv t;
      tv_init(&t, MAXN, 1);
      tv_heap(&t, ids, m, k, 0);
      assert_accepted(&t, k, TRUE, kary_min_height(m, k));
    }
  }
}
END_TEST

START_TEST(test_single_member_has_height_zero)
{
  tv t;
  tv_init(&t, 5, 1);
  tv_member(&t, 3, 0);
  assert_accepted(&t, 2, TRUE, 0);
}
END_TEST

START_TEST(test_no_member_passes_with_height_minus_one)
{
  tv t;
  tv_init(&t, 6, 1);
  assert_accepted(&t, 3, TRUE, -1);
}
END_TEST

START_TEST(test_empty_group_passes)
{
  tv t;
  tv_init(&t, 0, 1);
  assert_accepted(&t, 3, TRUE, -1);
}
END_TEST

START_TEST(test_non_member_fields_are_ignored)
{
  tv t;
  valid_tree(&t, 3);
  t.parent[1] = 4;            /* rank 1 does not join */
  t.nchildren[1] = 1;
  t.children[1][0] = 7;
  t.reported_color[1] = 12;
  assert_accepted(&t, 3, TRUE, kary_min_height(NMEMBERS, 3));
}
END_TEST

START_TEST(test_chain_accepted_without_min_height)
{
  tv t;
  tv_init(&t, 8, 1);
  int ids[] = {4, 0, 6, 1, 7};
  for (int i = 0; i < 5; i++)
    tv_member(&t, ids[i], 0);
  for (int i = 1; i < 5; i++)
    tv_link(&t, ids[i - 1], ids[i]);
  assert_accepted(&t, 2, FALSE, 4);
}
END_TEST

START_TEST(test_multicolor_heaps_pass_with_largest_height)
{
  tv t;
  tv_init(&t, 30, 3);
  int c0[] = {0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 1, 4}; /* 12 members */
  int c1[] = {2, 5, 8};                                   /* 3 */
  int c2[] = {29};                                        /* 1 */
  tv_heap(&t, c0, 12, 2, 0);
  tv_heap(&t, c1, 3, 2, 1);
  tv_heap(&t, c2, 1, 2, 2);
  assert_accepted(&t, 2, TRUE, kary_min_height(12, 2));
}
END_TEST

START_TEST(test_multicolor_with_an_empty_colour_passes)
{
  tv t;
  tv_init(&t, 10, 3);
  int c0[] = {0, 2, 4, 6};
  int c2[] = {1, 3, 5, 7, 9};
  tv_heap(&t, c0, 4, 2, 0);
  tv_heap(&t, c2, 5, 2, 2);
  assert_accepted(&t, 2, TRUE, 2);
}
END_TEST

/* ------------------------------------------------------------ rejected ---- */

START_TEST(test_too_many_children_rejected)
{
  tv t;
  tv_init(&t, 10, 1);
  for (int r = 0; r < 5; r++)
    tv_member(&t, r, 0);
  for (int r = 1; r < 5; r++)
    tv_link(&t, 0, r); /* 4 children, k = 3 */
  assert_rejected(&t, 3, FALSE, "children");
  assert_rejected(&t, 3, TRUE, NULL);
  assert_accepted(&t, 4, TRUE, 1); /* fine for k = 4 */
}
END_TEST

START_TEST(test_child_with_disagreeing_parent_rejected)
{
  tv t;
  valid_tree(&t, 3);
  /* MEMBERS[5] = 5 is a child of MEMBERS[1] = 2; make it name MEMBERS[2] = 19 */
  ck_assert_int_eq(t.parent[5], 2);
  t.parent[5] = 19;
  assert_rejected(&t, 3, FALSE, "5");
}
END_TEST

START_TEST(test_parent_not_listing_child_rejected)
{
  tv t;
  valid_tree(&t, 3);
  tv_unlist(&t, 2, 5); /* 5 still names 2 as its parent */
  assert_rejected(&t, 3, FALSE, "5");
}
END_TEST

START_TEST(test_child_listed_twice_rejected)
{
  tv t;
  valid_tree(&t, 3);
  t.children[2][t.nchildren[2]++] = 5; /* 5 again: 2 now has 4 children, within k = 4 */
  assert_rejected(&t, 4, FALSE, NULL);
}
END_TEST

START_TEST(test_parent_not_a_member_rejected)
{
  tv t;
  valid_tree(&t, 3);
  /* move 5 under rank 1, which does not join, with links that agree */
  tv_unlist(&t, 2, 5);
  t.parent[5] = 1;
  t.children[1][t.nchildren[1]++] = 5;
  assert_rejected(&t, 3, FALSE, "member");
}
END_TEST

START_TEST(test_parent_out_of_range_rejected)
{
  tv t;
  valid_tree(&t, 3);
  tv_unlist(&t, 2, 5);
  t.parent[5] = 20; /* n = 20 */
  assert_rejected(&t, 3, FALSE, NULL);
  t.parent[5] = -5;
  assert_rejected(&t, 3, FALSE, NULL);
}
END_TEST

START_TEST(test_child_not_a_member_rejected)
{
  tv t;
  valid_tree(&t, 3);
  t.children[7][t.nchildren[7]++] = 1; /* rank 1 does not join */
  t.parent[1] = 7;
  assert_rejected(&t, 4, FALSE, "member");
}
END_TEST

START_TEST(test_non_member_reporting_membership_rejected)
{
  tv t;
  valid_tree(&t, 3);
  t.reported_member[4] = 1; /* rank 4 does not join */
  assert_rejected(&t, 3, TRUE, "4");
}
END_TEST

START_TEST(test_member_not_reporting_rejected)
{
  tv t;
  valid_tree(&t, 3);
  t.reported_member[13] = 0;
  assert_rejected(&t, 3, TRUE, "13");
}
END_TEST

START_TEST(test_wrong_colour_rejected)
{
  tv t;
  tv_init(&t, 10, 2);
  int c0[] = {0, 2, 4, 6};
  int c1[] = {1, 3, 5};
  tv_heap(&t, c0, 4, 2, 0);
  tv_heap(&t, c1, 3, 2, 1);
  t.reported_color[3] = 0;
  assert_rejected(&t, 2, TRUE, "colour");
}
END_TEST

START_TEST(test_link_across_colours_rejected)
{
  tv t;
  tv_init(&t, 10, 2);
  int c0[] = {0, 2, 4, 6};
  int c1[] = {1, 3, 5};
  tv_heap(&t, c0, 4, 2, 0);
  tv_heap(&t, c1, 3, 2, 1);
  /* 5 (colour 1, child of 1) moves under 6 (colour 0), links agreeing */
  tv_unlist(&t, 1, 5);
  tv_link(&t, 6, 5);
  assert_rejected(&t, 2, FALSE, NULL);
}
END_TEST

START_TEST(test_two_roots_rejected)
{
  tv t;
  tv_init(&t, 10, 1);
  int a[] = {0, 1, 2};
  int b[] = {5, 6, 7};
  tv_heap(&t, a, 3, 2, 0);
  tv_heap(&t, b, 3, 2, 0);
  assert_rejected(&t, 2, FALSE, "root");
}
END_TEST

START_TEST(test_no_root_rejected)
{
  tv t;
  tv_init(&t, 4, 1);
  for (int r = 0; r < 3; r++)
    tv_member(&t, r, 0);
  tv_link(&t, 0, 1);
  tv_link(&t, 1, 2);
  tv_link(&t, 2, 0);
  assert_rejected(&t, 2, FALSE, "root");
}
END_TEST

START_TEST(test_detached_cycle_rejected)
{
  tv t;
  tv_init(&t, 8, 1);
  for (int r = 0; r < 5; r++)
    tv_member(&t, r, 0);
  tv_link(&t, 0, 1);
  tv_link(&t, 0, 2);
  tv_link(&t, 3, 4); /* 3 <-> 4: consistent links, unreachable from 0 */
  tv_link(&t, 4, 3);
  assert_rejected(&t, 2, FALSE, "reachable");
}
END_TEST

START_TEST(test_detached_cycle_in_second_colour_rejected)
{
  tv t;
  tv_init(&t, 12, 2);
  int c0[] = {0, 2, 4, 6, 8};
  tv_heap(&t, c0, 5, 2, 0);
  for (int r = 1; r <= 7; r += 2)
    tv_member(&t, r, 1);
  tv_link(&t, 1, 3); /* colour 1: root 1 -> 3, and 5 <-> 7 */
  tv_link(&t, 5, 7);
  tv_link(&t, 7, 5);
  assert_rejected(&t, 2, FALSE, "colour 1");
}
END_TEST

START_TEST(test_chain_rejected_with_min_height)
{
  tv t;
  tv_init(&t, 8, 1);
  int ids[] = {4, 0, 6, 1, 7};
  for (int i = 0; i < 5; i++)
    tv_member(&t, ids[i], 0);
  for (int i = 1; i < 5; i++)
    tv_link(&t, ids[i - 1], ids[i]);
  assert_rejected(&t, 2, TRUE, "height");
}
END_TEST

START_TEST(test_one_level_too_tall_rejected)
{
  /* 7 members, k = 2: minimal height 2; a valid binary tree of height 3 */
  tv t;
  tv_init(&t, 7, 1);
  for (int r = 0; r < 7; r++)
    tv_member(&t, r, 0);
  tv_link(&t, 0, 1);
  tv_link(&t, 0, 2);
  tv_link(&t, 1, 3);
  tv_link(&t, 1, 4);
  tv_link(&t, 3, 5);
  tv_link(&t, 3, 6);
  assert_rejected(&t, 2, TRUE, "height");
  assert_accepted(&t, 2, FALSE, 3);
}
END_TEST

START_TEST(test_why_may_be_null)
{
  tv t;
  valid_tree(&t, 3);
  t.reported_member[13] = 0;
  int h;
  cs_tree_view v = tv_view(&t);
  ck_assert(!cs_verify_tree(&v, 3, TRUE, &h, NULL));
}
END_TEST

static Suite *verify_suite(void)
{
  Suite *s = suite_create("verify");
  TCase *ok = tcase_create("accepted");
  tcase_add_test(ok, test_heap_over_members_passes);
  tcase_add_test(ok, test_heaps_of_every_size_pass_with_their_height);
  tcase_add_test(ok, test_single_member_has_height_zero);
  tcase_add_test(ok, test_no_member_passes_with_height_minus_one);
  tcase_add_test(ok, test_empty_group_passes);
  tcase_add_test(ok, test_non_member_fields_are_ignored);
  tcase_add_test(ok, test_chain_accepted_without_min_height);
  tcase_add_test(ok, test_multicolor_heaps_pass_with_largest_height);
  tcase_add_test(ok, test_multicolor_with_an_empty_colour_passes);
  suite_add_tcase(s, ok);
  TCase *bad = tcase_create("rejected");
  tcase_add_test(bad, test_too_many_children_rejected);
  tcase_add_test(bad, test_child_with_disagreeing_parent_rejected);
  tcase_add_test(bad, test_parent_not_listing_child_rejected);
  tcase_add_test(bad, test_child_listed_twice_rejected);
  tcase_add_test(bad, test_parent_not_a_member_rejected);
  tcase_add_test(bad, test_parent_out_of_range_rejected);
  tcase_add_test(bad, test_child_not_a_member_rejected);
  tcase_add_test(bad, test_non_member_reporting_membership_rejected);
  tcase_add_test(bad, test_member_not_reporting_rejected);
  tcase_add_test(bad, test_wrong_colour_rejected);
  tcase_add_test(bad, test_link_across_colours_rejected);
  tcase_add_test(bad, test_two_roots_rejected);
  tcase_add_test(bad, test_no_root_rejected);
  tcase_add_test(bad, test_detached_cycle_rejected);
  tcase_add_test(bad, test_detached_cycle_in_second_colour_rejected);
  tcase_add_test(bad, test_chain_rejected_with_min_height);
  tcase_add_test(bad, test_one_level_too_tall_rejected);
  tcase_add_test(bad, test_why_may_be_null);
  suite_add_tcase(s, bad);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(verify_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
