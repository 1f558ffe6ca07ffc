/* Unit tests of the k-ary heap helpers (algorithms/shapes/tree_shapes.[ch]), each
 * against a brute-force computation on the explicit heap:
 *  - kary_parent / kary_first_child agree with each other;
 *  - kary_depth equals the number of steps up the parents to the root
 *    (i < 10000, k = 2..6) and is exact at the level boundaries of big heaps;
 *  - kary_min_height(m, k) is the height of the heap of m vertices and is
 *    minimal: a k-ary tree one level shorter holds fewer than m vertices;
 *  - kary_nchildren and kary_subtree_size equal counts over the heap;
 *  - the degenerate heaps m = 0 and m = 1. */
#include "algorithms/shapes/tree_shapes.h"

#include <check.h>
#include <glib.h>
#include <stdlib.h>

#define KMIN 2
#define KMAX 6

/* ck_assert records its location on every call, which is slow in loops of
 * millions of checks: test in C and fail only on a mismatch. */
#define EXPECT(cond, ...)                                                                                      \
  do {                                                                                                         \
    if (!(cond))                                                                                               \
      ck_abort_msg(__VA_ARGS__);                                                                               \
  } while (0)

/* Steps from i up to the root, following (i - 1) / k (independent of kary.h). */
static int brute_depth(int64_t i, int k)
{
  int d = 0;
  while (i > 0) {
    i = (i - 1) / k;
    d++;
  }
  return d;
}

/* Most vertices a tree of height h with at most k children per vertex holds. */
static int64_t full_tree_size(int h, int k)
{
  int64_t total = 0, level = 1;
  for (int d = 0; d <= h; d++) {
    total += level;
    level *= k;
  }
  return total;
}

START_TEST(test_parent_of_root_is_none)
{
  for (int k = KMIN; k <= KMAX; k++)
    ck_assert_int_eq(kary_parent(0, k), -1);
}
END_TEST

START_TEST(test_children_name_their_parent)
{
  for (int k = KMIN; k <= KMAX; k++)
    for (int64_t i = 0; i < 2000; i++)
      for (int j = 0; j < k; j++)
        EXPECT(kary_parent(kary_first_child(i, k) + j, k) == i, "child %d of %lld (k = %d) names parent %d", j,
               (long long)i, k, kary_parent(kary_first_child(i, k) + j, k));
}
END_TEST

START_TEST(test_depth_matches_walk_to_root)
{
  for (int k = KMIN; k <= KMAX; k++)
    for (int64_t i = 0; i < 10000; i++)
      EXPECT(kary_depth(i, k) == brute_depth(i, k), "kary_depth(%lld, %d) = %d, walk gives %d", (long long)i, k,
             kary_depth(i, k), brute_depth(i, k));
}
END_TEST

/* The first vertex of depth d is (k^d - 1) / (k - 1); check it and its
 * predecessor for heaps far beyond 10000 vertices. */
START_TEST(test_depth_exact_at_level_boundaries)
{
  for (int k = KMIN; k <= KMAX; k++) {
    for (int d = 1; full_tree_size(d, k) < ((int64_t)1 << 40); d++) {
      int64_t first = full_tree_size(d - 1, k); /* vertices of depth < d */
      ck_assert_int_eq(kary_depth(first, k), d);
      ck_assert_int_eq(kary_depth(first - 1, k), d - 1);
      ck_assert_int_eq(brute_depth(first, k), d);
    }
  }
}
END_TEST

/* The height of the heap of m vertices is the largest depth among vertices
 * 0..m-1 (a running maximum of the walked depths). */
START_TEST(test_min_height_is_heap_height)
{
  for (int k = KMIN; k <= KMAX; k++) {
    int heap_height = 0;
    for (int64_t m = 1; m <= 20000; m++) {
      int d = brute_depth(m - 1, k);
      if (d > heap_height)
        heap_height = d;
      EXPECT(kary_min_height(m, k) == heap_height, "m = %lld, k = %d: %d, heap height %d", (long long)m, k,
             kary_min_height(m, k), heap_height);
    }
  }
}
END_TEST

START_TEST(test_min_height_is_minimal)
{
  for (int k = KMIN; k <= KMAX; k++) {
    for (int64_t m = 2; m <= 100000; m++) {
      int h = kary_min_height(m, k);
      EXPECT(h >= 1, "m = %lld, k = %d: height %d", (long long)m, k, h);
      EXPECT(full_tree_size(h, k) >= m, "m = %lld does not fit in height %d (k = %d)", (long long)m, h, k);
      EXPECT(full_tree_size(h - 1, k) < m, "m = %lld, k = %d: height %d is not minimal", (long long)m, k, h);
    }
  }
}
END_TEST

START_TEST(test_min_height_of_empty_and_single)
{
  for (int k = KMIN; k <= KMAX; k++) {
    ck_assert_int_eq(kary_min_height(0, k), 0);
    ck_assert_int_eq(kary_min_height(1, k), 0);
    ck_assert_int_eq(kary_min_height(2, k), 1);
    ck_assert_int_eq(kary_min_height(k + 1, k), 1);
    ck_assert_int_eq(kary_min_height(k + 2, k), 2);
  }
}
END_TEST

/* children[i] of the heap of `count` vertices, by scanning parents. */
static int *brute_nchildren(int64_t count, int k)
{
  int *c = g_new0(int, count + 1);
  for (int64_t j = 1; j < count; j++)
    c[(j - 1) / k]++;
  return c;
}

START_TEST(test_nchildren_matches_count)
{
  for (int k = KMIN; k <= KMAX; k++) {
    for (int64_t count = 0; count <= 400; count++) {
      int *c = brute_nchildren(count, k);
      for (int64_t i = 0; i < count + 3; i++) {
        int want = i < count ? c[i] : 0;
        EXPECT(kary_nchildren(i, k, count) == want, "kary_nchildren(%lld, %d, %lld) = %d, want %d", (long long)i,
               k, (long long)count, kary_nchildren(i, k, count), want);
      }
      g_free(c);
    }
  }
}
END_TEST

START_TEST(test_nchildren_sum_to_edges)
{
  for (int k = KMIN; k <= KMAX; k++) {
    for (int64_t count = 1; count <= 2000; count += 37) {
      int64_t sum = 0;
      for (int64_t i = 0; i < count; i++) {
        int c = kary_nchildren(i, k, count);
        EXPECT(c >= 0 && c <= k, "vertex %lld of %lld has %d children (k = %d)", (long long)i, (long long)count, c,
               k);
        sum += c;
      }
      ck_assert_int_eq(sum, count - 1);
    }
  }
}
END_TEST

/* Subtree sizes of the heap of `count` vertices, accumulated leaves first. */
static int64_t *brute_subtree_sizes(int64_t count, int k)
{
  int64_t *s = g_new0(int64_t, count + 1);
  for (int64_t j = count - 1; j >= 0; j--) {
    s[j] += 1;
    if (j > 0)
      s[(j - 1) / k] += s[j];
  }
  return s;
}

START_TEST(test_subtree_size_matches_count)
{
  for (int k = KMIN; k <= KMAX; k++) {
    for (int64_t count = 0; count <= 400; count++) {
      int64_t *s = brute_subtree_sizes(count, k);
      for (int64_t i = 0; i < count + 3; i++) {
        int64_t want = i < count ? s[i] : 0;
        EXPECT(kary_subtree_size(i, k, count) == want, "kary_subtree_size(%lld, %d, %lld) = %lld, want %lld",
               (long long)i, k, (long long)count, (long long)kary_subtree_size(i, k, count), (long long)want);
      }
      g_free(s);
    }
  }
}
END_TEST

START_TEST(test_subtree_of_root_is_whole_heap)
{
  for (int k = KMIN; k <= KMAX; k++)
    for (int64_t count = 0; count <= 1000000; count = count * 3 + 1)
      ck_assert_int_eq(kary_subtree_size(0, k, count), count);
}
END_TEST

START_TEST(test_empty_and_single_heap)
{
  for (int k = KMIN; k <= KMAX; k++) {
    ck_assert_int_eq(kary_nchildren(0, k, 0), 0);
    ck_assert_int_eq(kary_subtree_size(0, k, 0), 0);
    ck_assert_int_eq(kary_nchildren(0, k, 1), 0);
    ck_assert_int_eq(kary_subtree_size(0, k, 1), 1);
    ck_assert_int_eq(kary_depth(0, k), 0);
  }
}
END_TEST

static Suite *kary_suite(void)
{
  Suite *s = suite_create("kary");
  TCase *tc = tcase_create("heap");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_parent_of_root_is_none);
  tcase_add_test(tc, test_children_name_their_parent);
  tcase_add_test(tc, test_depth_matches_walk_to_root);
  tcase_add_test(tc, test_depth_exact_at_level_boundaries);
  tcase_add_test(tc, test_min_height_is_heap_height);
  tcase_add_test(tc, test_min_height_is_minimal);
  tcase_add_test(tc, test_min_height_of_empty_and_single);
  tcase_add_test(tc, test_nchildren_matches_count);
  tcase_add_test(tc, test_nchildren_sum_to_edges);
  tcase_add_test(tc, test_subtree_size_matches_count);
  tcase_add_test(tc, test_subtree_of_root_is_whole_heap);
  tcase_add_test(tc, test_empty_and_single_heap);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(kary_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
