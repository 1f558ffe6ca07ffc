/* The pattern-generator and linkUsage (patterns/).
 *  - For every registered algorithm, many PERCS shapes and a small platform of
 *    every family (the ranks spread over the nodes too), the node-pair traffic the
 *    pattern-generator produces (loops summed or walked in runs) equals a
 *    brute-force count over every op of every rank, loops unrolled one
 *    iteration at a time (cs_oplist_expand).
 *  - linkUsage on a hand-made route function: every link gets the bytes of
 *    every pair whose route crosses it; bytes x hops is conserved over the
 *    links between nodes; intra-node traffic goes over the node's loopback
 *    and into the intra totals; tier summaries (links used, min, max, total)
 *    are right, unused links excluded from min, unlisted links left out. */
#include "patterns/linkusage.h"
#include "patterns/pattern.h"

#include "tests/lib/algos.h"
#include "tests/lib/platform_specs.h"
#include "platforms/two_tier_net.h"

#include <check.h>
#include <string.h>

typedef struct matrix {
  int64_t nodes;
  uint64_t *bytes, *messages;
  int64_t last_src, last_dst; /* order check */
  gboolean ordered;
} matrix;

static void matrix_init(matrix *m, int64_t nodes)
{
  m->nodes = nodes;
  m->bytes = g_new0(uint64_t, nodes * nodes);
  m->messages = g_new0(uint64_t, nodes * nodes);
  m->last_src = m->last_dst = -1;
  m->ordered = TRUE;
}

static void matrix_free(matrix *m)
{
  g_free(m->bytes);
  g_free(m->messages);
}

static void pair_sink(void *user, int64_t s, int64_t d, uint64_t bytes, uint64_t messages)
{
  matrix *m = user;
  if (s < m->last_src || (s == m->last_src && d <= m->last_dst))
    m->ordered = FALSE;
  m->last_src = s;
  m->last_dst = d;
  m->bytes[s * m->nodes + d] += bytes;
  m->messages[s * m->nodes + d] += messages;
}

typedef struct brute {
  const cs_sched_params *prm;
  matrix *m;
  int64_t rank;
} brute;

static bool count_send(const cs_op *op, void *user)
{
  brute *b = user;
  if (op->kind != CS_OP_SEND)
    return true;
  int64_t k = cs_rank_node(b->prm, b->rank) * b->m->nodes + cs_rank_node(b->prm, op->peer);
  b->m->bytes[k] += cs_units_bytes(b->prm, op->units);
  b->m->messages[k]++;
  return true;
}

static void brute_force(const cs_coll_algo *a, const cs_sched_params *prm, matrix *m)
{
  cs_oplist o;
  cs_oplist_init(&o);
  for (int64_t r = 0; r < prm->p; r++) {
    cs_oplist_clear(&o);
    a->ops(prm, r, &o);
    brute b = {prm, m, r};
    cs_oplist_expand(prm, &o, count_send, &b);
  }
  cs_oplist_free(&o);
}

static int compare_one(const cs_coll_algo *a, const cs_two_tier *net, uint64_t size)
{
  cs_sched_params prm;
  if (!test_setup(&prm, a, net, size)) /* refused for a reason test_setup accepts: nothing to compare */
    return 0;
  int64_t nodes = cs_tt_nodes(net);
  matrix fast, slow;
  matrix_init(&fast, nodes);
  matrix_init(&slow, nodes);
  cs_pattern_totals tot;
  cs_pattern_generate(a, &prm, pair_sink, &fast, &tot, NULL, NULL);
  brute_force(a, &prm, &slow);
  size_t n = (size_t)(nodes * nodes);
  ck_assert_msg(memcmp(fast.bytes, slow.bytes, n * sizeof(uint64_t)) == 0, "%s %s p=%lld: bytes differ",
                cs_coll_name(a->coll), a->name, (long long)net->p);
  ck_assert_msg(memcmp(fast.messages, slow.messages, n * sizeof(uint64_t)) == 0, "%s %s p=%lld: messages differ",
                cs_coll_name(a->coll), a->name, (long long)net->p);
  ck_assert_msg(fast.ordered, "%s %s: pairs not in (src, dst) order", cs_coll_name(a->coll), a->name);
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += slow.bytes[i];
  ck_assert_uint_eq(tot.bytes, total);
  matrix_free(&fast);
  matrix_free(&slow);
  return 1;
}

/* Loops of every kind the generator treats specially: fixed peer with moving
 * units, peer steps of +1, -1, -(cpn+1) and p-1 (the short way round). */
static bool plan_blocks(cs_sched_params *prm, GError **err)
{
  (void)err;
  prm->nunits = 3 * prm->p;
  return true;
}

static void loop_ops(const cs_sched_params *prm, int64_t r, cs_oplist *o)
{
  int64_t p = prm->p, cpn = prm->tt->cpn;
  cs_ops_loop(o, p - 1, 1);
  cs_ops_send(o, (r + 1) % p, 0, cs_units_range(3 * r, 2));
  cs_ops_step(o, 0, 1);
  cs_ops_loop(o, 2 * p + 1, 2);
  cs_ops_send(o, (r + 1) % p, 1 << 20, cs_units_range(r, 1));
  cs_ops_step(o, 1, 5);
  cs_ops_send(o, r, 1 << 21, cs_units_range(0, 3));
  cs_ops_step(o, -(cpn + 1), 1);
  cs_ops_loop(o, p + 3, 1);
  cs_ops_send(o, r, 1 << 22, cs_units_range(2, 1));
  cs_ops_step(o, p - 1, -1);
  cs_ops_loop(o, 0, 1);
  cs_ops_send(o, 0, 1 << 23, cs_units_range(0, 1));
  cs_ops_send(o, 0, 1 << 24, cs_units_range(1, 4));
}

static const cs_coll_algo loops = {"loops", CS_COLL_ALLGATHER, "test", plan_blocks, loop_ops, false, NULL, NULL};

START_TEST(pattern_loops)
{
  int64_t shapes[][3] = {{1, 1, 1}, {1, 1, 5}, {2, 3, 1}, {3, 2, 4}, {5, 1, 3}};
  for (size_t s = 0; s < G_N_ELEMENTS(shapes); s++)
    for (uint64_t size = 1; size <= 11; size += 5) {
      cs_net net = cs_net_percs(shapes[s][0], shapes[s][1], shapes[s][2]);
      ck_assert_int_eq(compare_one(&loops, &net.tt, size), 1);
    }
}
END_TEST

START_TEST(pattern_equals_brute_force)
{
  int64_t shapes[][3] = {{1, 1, 1}, {2, 2, 2}, {3, 2, 2}, {4, 4, 1}, {5, 3, 2}, {4, 2, 4}, {8, 4, 2}, {6, 4, 3}};
  uint64_t sizes[] = {64, 7, 1000};
  for (size_t i = 0; i < cs_coll_algo_count(); i++)
    for (size_t s = 0; s < G_N_ELEMENTS(shapes); s++)
      for (size_t z = 0; z < G_N_ELEMENTS(sizes); z++) {
        cs_net net = cs_net_percs(shapes[s][0], shapes[s][1], shapes[s][2]);
        compare_one(cs_coll_algo_at(i), &net.tt, sizes[z]);
      }
}
END_TEST

/* The same on a small platform of every family (spread mappings included). */
START_TEST(pattern_on_every_platform_family)
{
  test_platforms_cover_registry();
  uint64_t sizes[] = {64, 7};
  for (size_t i = 0; i < cs_coll_algo_count(); i++)
    for (size_t s = 0; s < N_TEST_PLATFORMS; s++) {
      cs_two_tier tt = test_platform_view(TEST_PLATFORMS[s]);
      for (size_t z = 0; z < G_N_ELEMENTS(sizes); z++)
        compare_one(cs_coll_algo_at(i), &tt, sizes[z]);
    }
}
END_TEST

/* A line of 4 nodes, links i -> i+1 (ids 0..2, tier "R") and i+1 -> i (ids
 * 3..5, tier "L"), and a loopback per node (ids 6..9, tier "intra"): the
 * route from a to b walks the line, from a to a takes a's loopback. */
static int line_route(void *ctx, int64_t a, int64_t b, const int32_t **links)
{
  static int32_t buf[8];
  (void)ctx;
  int n = 0;
  for (int64_t x = a; x < b; x++)
    buf[n++] = (int32_t)x;
  for (int64_t x = a; x > b; x--)
    buf[n++] = (int32_t)(3 + x - 1);
  if (a == b)
    buf[n++] = (int32_t)(6 + a);
  *links = buf;
  return n;
}

START_TEST(linkusage_line)
{
  cs_linkusage *lu = cs_linkusage_new(10, 4, line_route, NULL);
  cs_linkusage_add(lu, 0, 3, 100, 2); /* links 0, 1, 2 */
  cs_linkusage_add(lu, 1, 2, 10, 1);  /* link 1 */
  cs_linkusage_add(lu, 2, 0, 5, 1);   /* links 4, 3 */
  cs_linkusage_add(lu, 2, 2, 999, 3); /* intra-node: link 8 */
  ck_assert_uint_eq(cs_linkusage_link_bytes(lu, 0), 100);
  ck_assert_uint_eq(cs_linkusage_link_bytes(lu, 1), 110);
  ck_assert_uint_eq(cs_linkusage_link_messages(lu, 1), 3);
  ck_assert_uint_eq(cs_linkusage_link_bytes(lu, 3), 5);
  ck_assert_uint_eq(cs_linkusage_link_bytes(lu, 5), 0);
  ck_assert_uint_eq(cs_linkusage_link_bytes(lu, 8), 999);
  ck_assert_uint_eq(cs_linkusage_link_messages(lu, 8), 3);
  cs_linkusage_totals t = cs_linkusage_get_totals(lu);
  uint64_t sum = 0;
  for (int l = 0; l < 6; l++)
    sum += cs_linkusage_link_bytes(lu, l);
  ck_assert_uint_eq(t.byte_hops, sum); /* conservation */
  ck_assert_uint_eq(t.byte_hops, 100 * 3 + 10 + 5 * 2);
  ck_assert_uint_eq(t.network_bytes, 115);
  ck_assert_uint_eq(t.intra_bytes, 999);
  ck_assert_uint_eq(t.intra_messages, 3);
  const char *tiers[] = {"R", "R", "R", "L", "L", "L", "intra", "intra", "intra", "intra"};
  cs_tier_summary *s = NULL;
  size_t n = cs_linkusage_tiers(lu, tiers, NULL, &s);
  ck_assert_uint_eq(n, 3);
  ck_assert_str_eq(s[0].name, "R");
  ck_assert_int_eq(s[0].links, 3);
  ck_assert_int_eq(s[0].links_used, 3);
  ck_assert_uint_eq(s[0].min_bytes, 100);
  ck_assert_uint_eq(s[0].max_bytes, 110);
  ck_assert_uint_eq(s[0].total_bytes, 310);
  ck_assert_str_eq(s[1].name, "L");
  ck_assert_int_eq(s[1].links_used, 2);
  ck_assert_uint_eq(s[1].min_bytes, 5); /* the unused link 5 does not count */
  ck_assert_str_eq(s[2].name, "intra");
  ck_assert_int_eq(s[2].links, 4);
  ck_assert_int_eq(s[2].links_used, 1);
  ck_assert_uint_eq(s[2].max_bytes, 999);
  g_free(s);
  /* links left out of the listing are left out of every tier */
  const bool listed[] = {true, false, true, true, true, true, false, false, false, false};
  n = cs_linkusage_tiers(lu, tiers, listed, &s);
  ck_assert_uint_eq(n, 2);
  ck_assert_int_eq(s[0].links, 2);
  ck_assert_uint_eq(s[0].total_bytes, 200);
  ck_assert_uint_eq(s[0].messages, 4);
  g_free(s);
  cs_linkusage_free(lu);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("pattern");
  TCase *tc = tcase_create("pattern");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, pattern_loops);
  tcase_add_test(tc, pattern_equals_brute_force);
  tcase_add_test(tc, pattern_on_every_platform_family);
  tcase_add_test(tc, linkusage_line);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
