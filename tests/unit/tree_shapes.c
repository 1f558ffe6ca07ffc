/* Unit tests of the tree shapes (algorithms/shapes/tree_shapes.h): for
 * p = 1..300 and a few larger sizes, from several roots (0, 1, p/2, p-1):
 *  - the binomial tree: following the children (rel + mask for mask below
 *    cs_binomial_child_limit, those < p) from the root reaches every rank
 *    0..p-1 exactly once; each child names its parent (cs_binomial_parent);
 *    each rank's subtree (cs_binomial_subtree_size) is the relative ranks
 *    [rel, rel + size), counted by walking the children; the root has no
 *    parent; depth at most ceil(lg p);
 *  - the k-ary heap (k = 1..6) over relative ranks: the same spanning
 *    property with kary_first_child / kary_nchildren / kary_parent, and
 *    kary_subtree_size agrees with the walk;
 *  - Open MPI's level-numbered tree (fanout 1..5) and chains (1..6): the
 *    same spanning property, parents agreeing with children, a parent
 *    numbered below its children; both by hand for small p;
 *  - the power-of-two helpers against their definitions.
 * (check_kary tests the heap's depth and height functions.) */
#include "algorithms/shapes/tree_shapes.h"

#include <check.h>
#include <glib.h>
#include <stdlib.h>

/* Fail only on a mismatch (ck_assert in loops of millions is slow). */
#define EXPECT(cond, ...)                                                                                      \
  do {                                                                                                         \
    if (!(cond))                                                                                               \
      ck_abort_msg(__VA_ARGS__);                                                                               \
  } while (0)

/* A tree shape over relative ranks 0..p-1: children of rel into kids,
 * returns how many; and rel's parent. */
typedef struct shape {
  const char *name;
  int k; /* k-ary only */
  int64_t (*children)(const struct shape *s, int64_t rel, int64_t p, int64_t *kids);
  int64_t (*parent)(const struct shape *s, int64_t rel);
  int64_t (*subtree)(const struct shape *s, int64_t rel, int64_t p);
} shape;

static int64_t binomial_children(const shape *s, int64_t rel, int64_t p, int64_t *kids)
{
  (void)s;
  int64_t n = 0;
  for (int64_t mask = cs_binomial_child_limit(rel, p) >> 1; mask > 0; mask >>= 1)
    if (rel + mask < p)
      kids[n++] = rel + mask;
  return n;
}
static int64_t binomial_parent(const shape *s, int64_t rel) { (void)s; return cs_binomial_parent(rel); }
static int64_t binomial_subtree(const shape *s, int64_t rel, int64_t p)
{
  (void)s;
  return cs_binomial_subtree_size(rel, p);
}

static int64_t kary_children(const shape *s, int64_t rel, int64_t p, int64_t *kids)
{
  int64_t n = kary_nchildren(rel, s->k, p);
  for (int64_t i = 0; i < n; i++)
    kids[i] = kary_first_child(rel, s->k) + i;
  return n;
}
static int64_t kary_parent_of(const shape *s, int64_t rel) { return kary_parent(rel, s->k); }
static int64_t kary_subtree(const shape *s, int64_t rel, int64_t p) { return kary_subtree_size(rel, s->k, p); }

/* Walk s from the root: every absolute rank reached exactly once, from the
 * parent it names; subtree sizes agree with the walk; returns the depth. */
static int64_t walk(const shape *s, int64_t rel, int64_t p, int64_t root, int *seen, int64_t *size, int64_t depth)
{
  int64_t abs = cs_tree_abs_rank(rel, root, p);
  EXPECT(abs >= 0 && abs < p && cs_tree_rel_rank(abs, root, p) == rel, "%s p %lld root %lld: rel %lld -> %lld",
         s->name, (long long)p, (long long)root, (long long)rel, (long long)abs);
  EXPECT(seen[abs]++ == 0, "%s p %lld root %lld: rank %lld reached twice", s->name, (long long)p, (long long)root,
         (long long)abs);
  int64_t *kids = g_new(int64_t, (gsize)(64 + s->k)), n = s->children(s, rel, p, kids), deepest = depth;
  *size = 1;
  for (int64_t i = 0; i < n; i++) {
    EXPECT(kids[i] > 0 && kids[i] < p, "%s p %lld: child %lld of %lld out of range", s->name, (long long)p,
           (long long)kids[i], (long long)rel);
    EXPECT(s->parent(s, kids[i]) == rel, "%s p %lld: child %lld of %lld names parent %lld", s->name, (long long)p,
           (long long)kids[i], (long long)rel, (long long)s->parent(s, kids[i]));
    int64_t below, d = walk(s, kids[i], p, root, seen, &below, depth + 1);
    deepest = MAX(deepest, d);
    *size += below;
  }
  g_free(kids);
  EXPECT(s->subtree(s, rel, p) == *size, "%s p %lld: subtree of %lld has %lld ranks, the function says %lld",
         s->name, (long long)p, (long long)rel, (long long)*size, (long long)s->subtree(s, rel, p));
  return deepest;
}

static int64_t span(const shape *s, int64_t p, int64_t root)
{
  int *seen = g_new0(int, (gsize)p);
  int64_t size;
  EXPECT(s->parent(s, 0) == -1, "%s: the root has parent %lld", s->name, (long long)s->parent(s, 0));
  int64_t depth = walk(s, 0, p, root, seen, &size, 0);
  for (int64_t r = 0; r < p; r++)
    EXPECT(seen[r] == 1, "%s p %lld root %lld: rank %lld reached %d times", s->name, (long long)p, (long long)root,
           (long long)r, seen[r]);
  g_free(seen);
  return depth;
}

static const int64_t BIG[] = {511, 512, 513, 1000, 1023, 1024, 1025, 4097};

/* Calls check(s, p, root) for every size and root of the file comment. */
static void each_shape_size(const shape *s, void (*check)(const shape *s, int64_t p, int64_t root))
{
  for (int64_t p = 1; p <= 300 + (int64_t)G_N_ELEMENTS(BIG); p++) {
    int64_t n = p <= 300 ? p : BIG[p - 301];
    const int64_t roots[] = {0, 1 % n, n / 2, n - 1};
    for (size_t r = 0; r < G_N_ELEMENTS(roots); r++)
      check(s, n, roots[r]);
  }
}

static void binomial_check(const shape *s, int64_t p, int64_t root)
{
  int64_t depth = span(s, p, root);
  EXPECT(depth <= cs_log2_pow2(cs_pow2_ceil(p)), "binomial p %lld: depth %lld", (long long)p, (long long)depth);
}

START_TEST(binomial_spans_every_rank_once)
{
  const shape s = {"binomial", 0, binomial_children, binomial_parent, binomial_subtree};
  each_shape_size(&s, binomial_check);
}
END_TEST

static void kary_check(const shape *s, int64_t p, int64_t root)
{
  int64_t depth = span(s, p, root);
  EXPECT(depth == kary_min_height(p, s->k), "%d-ary p %lld: depth %lld", s->k, (long long)p,
         (long long)depth);
}

START_TEST(kary_spans_every_rank_once)
{
  shape s = {"k-ary", 2 + _i, kary_children, kary_parent_of, kary_subtree};
  each_shape_size(&s, kary_check);
}
END_TEST

START_TEST(chain_spans_every_rank_once)
{
  shape s = {"1-ary", 1, kary_children, kary_parent_of, kary_subtree};
  for (int64_t p = 1; p <= 300; p++)
    EXPECT(span(&s, p, p / 3) == p - 1, "chain of %lld is not a path", (long long)p);
}
END_TEST

/* Open MPI's trees: from 0, the children reach every rank once, each
 * child's parent is the rank that lists it, and parents come first. */
static void check_ompi_shape(int64_t p, int fanout, bool chain)
{
  int64_t *seen = g_new0(int64_t, p), stack_n = 1, kids[64], *stack = g_new(int64_t, p);
  stack[0] = 0;
  seen[0] = 1;
  EXPECT((chain ? cs_ompi_chain_parent(0, fanout, p) : cs_ompi_tree_parent(0, fanout, p)) == -1, "root parent");
  while (stack_n) {
    int64_t r = stack[--stack_n];
    int k = chain ? cs_ompi_chain_children(r, fanout, p, kids) : cs_ompi_tree_children(r, fanout, p, kids);
    EXPECT(k <= fanout, "p %lld fanout %d: %lld has %d children", (long long)p, fanout, (long long)r, k);
    for (int i = 0; i < k; i++) {
      int64_t c = kids[i], parent = chain ? cs_ompi_chain_parent(c, fanout, p) : cs_ompi_tree_parent(c, fanout, p);
      EXPECT(c > r && c < p && !seen[c]++, "p %lld fanout %d: child %lld of %lld", (long long)p, fanout, (long long)c,
             (long long)r);
      EXPECT(parent == r, "p %lld fanout %d%s: parent of %lld is %lld, listed by %lld", (long long)p, fanout,
             chain ? " chain" : "", (long long)c, (long long)parent, (long long)r);
      stack[stack_n++] = c;
    }
  }
  for (int64_t r = 0; r < p; r++)
    EXPECT(seen[r] == 1, "p %lld fanout %d: rank %lld not reached", (long long)p, fanout, (long long)r);
  g_free(seen);
  g_free(stack);
}

START_TEST(ompi_trees_span_every_rank_once)
{
  for (int64_t p = 1; p <= 300; p++)
    for (int f = 1; f <= 6; f++) {
      check_ompi_shape(p, f, true);
      if (f <= 5)
        check_ompi_shape(p, f, false);
    }
}
END_TEST

/* ompi_coll_base_topo_build_tree's comment (fanout 2, p = 7) and
 * build_chain's arithmetic (4 chains over 10 ranks: lengths 3, 3, 2, 2). */
START_TEST(ompi_trees_by_hand)
{
  int64_t kids[8];
  ck_assert_int_eq(cs_ompi_tree_children(0, 2, 7, kids), 2);
  ck_assert(kids[0] == 1 && kids[1] == 2);
  ck_assert_int_eq(cs_ompi_tree_children(1, 2, 7, kids), 2);
  ck_assert(kids[0] == 3 && kids[1] == 5);
  ck_assert_int_eq(cs_ompi_tree_children(2, 2, 7, kids), 2);
  ck_assert(kids[0] == 4 && kids[1] == 6);
  ck_assert_int_eq(cs_ompi_tree_parent(6, 2, 7), 2);
  ck_assert_int_eq(cs_ompi_chain_children(0, 4, 11, kids), 4);
  ck_assert(kids[0] == 1 && kids[1] == 4 && kids[2] == 7 && kids[3] == 9);
  ck_assert_int_eq(cs_ompi_chain_children(3, 4, 11, kids), 0);
  ck_assert_int_eq(cs_ompi_chain_children(7, 4, 11, kids), 1);
  ck_assert_int_eq(kids[0], 8);
  ck_assert_int_eq(cs_ompi_chain_parent(9, 4, 11), 0);
  ck_assert_int_eq(cs_ompi_chain_parent(10, 4, 11), 9);
  ck_assert_int_eq(cs_ompi_chain_children(0, 4, 3, kids), 2); /* fewer chains than 4 */
}
END_TEST

START_TEST(powers_of_two)
{
  for (int64_t x = 1; x <= 5000; x++) {
    int64_t lo = cs_pow2_floor(x), hi = cs_pow2_ceil(x);
    EXPECT((lo & (lo - 1)) == 0 && lo <= x && 2 * lo > x, "pow2_floor(%lld) = %lld", (long long)x, (long long)lo);
    EXPECT((hi & (hi - 1)) == 0 && hi >= x && hi / 2 < x, "pow2_ceil(%lld) = %lld", (long long)x, (long long)hi);
    EXPECT((INT64_C(1) << cs_log2_pow2(lo)) == lo, "log2(%lld) = %d", (long long)lo, cs_log2_pow2(lo));
    EXPECT((x & cs_lowbit(x)) == cs_lowbit(x) && (x & (cs_lowbit(x) - 1)) == 0, "lowbit(%lld)", (long long)x);
  }
  ck_assert_int_eq(cs_pow2_ceil(1), 1);
  ck_assert_int_eq(cs_pow2_floor(1), 1);
}
END_TEST

static Suite *tree_shapes_suite(void)
{
  Suite *s = suite_create("tree_shapes");
  TCase *tc = tcase_create("shapes");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, binomial_spans_every_rank_once);
  tcase_add_loop_test(tc, kary_spans_every_rank_once, 0, 5); /* k = 2..6 */
  tcase_add_test(tc, chain_spans_every_rank_once);
  tcase_add_test(tc, ompi_trees_span_every_rank_once);
  tcase_add_test(tc, ompi_trees_by_hand);
  tcase_add_test(tc, powers_of_two);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(tree_shapes_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
