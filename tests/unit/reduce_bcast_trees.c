/* Tests of the reduce/broadcast tree-script generators (seed 002,
 * algorithms/allreduce): hand-checked small trees of each family (LAM's as
 * its code builds them), message and inter-node message counts of
 * Sections 5.1-5.2's configurations, and cs_ts_validate over every
 * generator, n = 1..64 and the cluster shapes with round-robin (LAM's even
 * spread) and block placement. */
#include "algorithms/reduce_bcast_trees/tree_gen.h"
#include "sim/checks/tree_script_check.h"

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

/* One rank's commands of one phase as "recv 13, recv 14, send 8". */
static char *cmds(const cs_tree_script *s, cs_ts_phase ph, int r)
{
  GString *g = g_string_new("");
  const cs_ts_list *l = &s->phase[ph][r];
  for (int i = 0; i < l->n; i++)
    g_string_append_printf(g, "%s%s %d", i ? ", " : "", l->cmd[i].kind == CS_TS_RECV ? "recv" : "send",
                           l->cmd[i].peer);
  return g_string_free(g, FALSE);
}

#define EXPECT(s, ph, r, want)                 \
  do {                                         \
    char *got_ = cmds((s), (ph), (r));         \
    ck_assert_str_eq(got_, (want));            \
    g_free(got_);                              \
  } while (0)

static int *round_robin(int n, int nodes)
{
  int *node_of = g_new(int, n);
  for (int r = 0; r < n; r++)
    node_of[r] = r % nodes;
  return node_of;
}

static int *block(int n, int cores)
{
  int *node_of = g_new(int, n);
  for (int r = 0; r < n; r++)
    node_of[r] = r / cores;
  return node_of;
}

static cs_tree_gen_params params(int n, int nodes, int cores, const int *node_of, int groups, int fanout)
{
  return (cs_tree_gen_params){.n = n, .nodes = nodes, .cores = cores, .node_of = node_of,
                              .groups_per_node = groups, .fanout = fanout,
                              .order = CS_TS_SCRIPTED_ORDER};
}

static cs_tree_script *gen(const char *name, const cs_tree_gen_params *prm)
{
  const cs_tree_gen *g = cs_tree_gen_find(name);
  ck_assert_msg(g != NULL, "no generator %s", name);
  cs_tree_script *s = g->generate(prm);
  ck_assert_msg(s != NULL, "%s returned NULL", name);
  return s;
}

/* Sends of one phase: all of them, or with node_of only those across nodes. */
static int phase_sends(const cs_tree_script *s, cs_ts_phase ph, const int *node_of)
{
  int m = 0;
  for (int r = 0; r < s->n; r++)
    for (int i = 0; i < s->phase[ph][r].n; i++) {
      cs_ts_cmd c = s->phase[ph][r].cmd[i];
      m += c.kind == CS_TS_SEND && (!node_of || node_of[c.peer] != node_of[r]);
    }
  return m;
}

static int both_phases(const cs_tree_script *s, const int *node_of)
{
  return phase_sends(s, CS_TS_REDUCE, node_of) + phase_sends(s, CS_TS_BCAST, node_of);
}

static void assert_same_scripts(const cs_tree_script *a, const cs_tree_script *b)
{
  ck_assert_int_eq(a->n, b->n);
  for (int ph = 0; ph < 2; ph++)
    for (int r = 0; r < a->n; r++) {
      char *x = cmds(a, ph, r), *y = cmds(b, ph, r);
      ck_assert_msg(strcmp(x, y) == 0, "phase %d rank %d: %s vs %s", ph, r, x, y);
      g_free(x);
      g_free(y);
    }
}

/* Each rank's broadcast is its reduce reversed with send/recv swapped. */
static void assert_mirrored(const cs_tree_script *s)
{
  for (int r = 0; r < s->n; r++) {
    const cs_ts_list *red = &s->phase[CS_TS_REDUCE][r], *bc = &s->phase[CS_TS_BCAST][r];
    ck_assert_int_eq(red->n, bc->n);
    for (int i = 0; i < red->n; i++) {
      cs_ts_cmd a = red->cmd[red->n - 1 - i], b = bc->cmd[i];
      ck_assert_int_eq(a.peer, b.peer);
      ck_assert_int_ne(a.kind, b.kind);
    }
  }
}

/* ---- registry ---- */

START_TEST(test_registry_lists_families)
{
  /* every row is found by its own name, at its own place, and complete;
   * the generators this file tests by name are found through it */
  ck_assert_uint_ge(cs_tree_gen_count(), 1);
  for (size_t i = 0; i < cs_tree_gen_count(); i++) {
    const cs_tree_gen *g = cs_tree_gen_at(i);
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_nonnull(g->name);
    ck_assert_ptr_eq(cs_tree_gen_find(g->name), g);
    ck_assert_ptr_nonnull(g->summary);
    ck_assert_ptr_nonnull(g->generate);
  }
  ck_assert_ptr_null(cs_tree_gen_find("nope"));
  ck_assert_ptr_null(cs_tree_gen_find(NULL));
  ck_assert_ptr_null(cs_tree_gen_at(cs_tree_gen_count()));
}
END_TEST

START_TEST(test_script_header)
{
  int *node_of = round_robin(12, 4);
  for (size_t i = 0; i < cs_tree_gen_count(); i++) {
    const cs_tree_gen *g = cs_tree_gen_at(i);
    cs_tree_gen_params prm = params(12, 4, 3, node_of, 1, 0);
    prm.order = i % 2 ? CS_TS_ARRIVAL_ORDER : CS_TS_SCRIPTED_ORDER;
    cs_tree_script *s = g->generate(&prm);
    ck_assert_str_eq(s->name, g->name);
    ck_assert_int_eq(s->n, 12);
    ck_assert_int_eq(s->root, 0);
    ck_assert_int_eq(s->order, prm.order);
    cs_ts_free(s);
  }
  g_free(node_of);
}
END_TEST

START_TEST(test_unusable_params_give_null)
{
  int neg[4] = {0, 1, -1, 0};
  cs_tree_gen_params zero = params(0, 1, 1, neg, 1, 0), bad_node = params(4, 2, 2, neg, 1, 0),
                     no_nodes = params(4, 2, 2, NULL, 1, 0);
  for (size_t i = 0; i < cs_tree_gen_count(); i++)
    ck_assert_ptr_null(cs_tree_gen_at(i)->generate(&zero));
  ck_assert_ptr_null(cs_tree_gen_find("hierarchical")->generate(&bad_node));
  ck_assert_ptr_null(cs_tree_gen_find("hierarchical")->generate(&no_nodes));
  ck_assert_ptr_null(cs_tree_gen_find("kary-node")->generate(&no_nodes));
  int ok[4] = {0, 1, 0, 1};
  cs_tree_gen_params neg_fan = params(4, 2, 2, ok, 1, -1), neg_groups = params(4, 2, 2, ok, -1, 0);
  ck_assert_ptr_null(cs_tree_gen_find("kary-node")->generate(&neg_fan));
  ck_assert_ptr_null(cs_tree_gen_find("kary-node")->generate(&neg_groups));
  ck_assert_ptr_null(cs_tree_gen_find("hierarchical")->generate(&neg_groups));
  /* the placement-blind families need no node_of */
  const char *blind[] = {"lam", "lam7", "linear"};
  for (size_t i = 0; i < G_N_ELEMENTS(blind); i++)
    cs_ts_free(gen(blind[i], &no_nodes));
}
END_TEST

/* ---- LAM ---- */

START_TEST(test_lam_32_reduce_ranks_from_paper)
{
  cs_tree_gen_params prm = params(32, 8, 4, NULL, 1, 0);
  cs_tree_script *s = gen("lam", &prm);
  EXPECT(s, CS_TS_REDUCE, 12, "recv 13, recv 14, send 8"); /* Section 4's example */
  EXPECT(s, CS_TS_REDUCE, 0, "recv 1, recv 2, recv 4, recv 8, recv 16");
  EXPECT(s, CS_TS_REDUCE, 16, "recv 17, recv 18, recv 20, recv 24, send 0");
  EXPECT(s, CS_TS_REDUCE, 31, "send 30");
  EXPECT(s, CS_TS_BCAST, 0, "send 1, send 2, send 4, send 8, send 16");
  EXPECT(s, CS_TS_BCAST, 12, "recv 4, send 28");
  EXPECT(s, CS_TS_BCAST, 1, "recv 0, send 3, send 5, send 9, send 17");
  EXPECT(s, CS_TS_BCAST, 31, "recv 15");
  cs_ts_free(s);
}
END_TEST

START_TEST(test_lam_8_spelled_out)
{
  static const char *reduce[8] = {"recv 1, recv 2, recv 4", "send 0", "recv 3, send 0", "send 2",
                                  "recv 5, recv 6, send 0", "send 4", "recv 7, send 4", "send 6"};
  static const char *bcast[8] = {"send 1, send 2, send 4", "recv 0, send 3, send 5", "recv 0, send 6",
                                 "recv 1, send 7", "recv 0", "recv 1", "recv 2", "recv 3"};
  cs_tree_gen_params prm = params(8, 4, 2, NULL, 1, 0);
  cs_tree_script *s = gen("lam", &prm);
  for (int r = 0; r < 8; r++) {
    EXPECT(s, CS_TS_REDUCE, r, reduce[r]);
    EXPECT(s, CS_TS_BCAST, r, bcast[r]);
  }
  cs_ts_free(s);
}
END_TEST

START_TEST(test_lam_linear_up_to_4)
{
  cs_tree_gen_params prm = params(4, 2, 2, NULL, 1, 0);
  cs_tree_script *s = gen("lam", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "recv 3, recv 2, recv 1"); /* LAM's reduce_lin: size-1 first */
  EXPECT(s, CS_TS_BCAST, 0, "send 1, send 2, send 3");
  for (int r = 1; r < 4; r++) {
    EXPECT(s, CS_TS_REDUCE, r, "send 0");
    EXPECT(s, CS_TS_BCAST, r, "recv 0");
  }
  cs_ts_free(s);
  prm.n = 3;
  s = gen("lam", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "recv 2, recv 1");
  EXPECT(s, CS_TS_BCAST, 0, "send 1, send 2");
  cs_ts_free(s);
  prm.n = 1;
  s = gen("lam", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "");
  EXPECT(s, CS_TS_BCAST, 0, "");
  cs_ts_free(s);
  prm.n = 5; /* the log trees from 5 on */
  s = gen("lam", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "recv 1, recv 2, recv 4");
  EXPECT(s, CS_TS_BCAST, 0, "send 1, send 2, send 4");
  EXPECT(s, CS_TS_BCAST, 3, "recv 1");
  cs_ts_free(s);
}
END_TEST

/* Figure 3: 32 ranks on 8 nodes, round-robin: the reduce tree crosses
 * nodes on every arc but 8->0, 16->0, 24->16; the broadcast only on the
 * arcs into ranks 1..7. */
START_TEST(test_lam_32_on_8_nodes_internode)
{
  int *node_of = round_robin(32, 8);
  cs_tree_gen_params prm = params(32, 8, 4, node_of, 1, 0);
  cs_tree_script *s = gen("lam", &prm);
  ck_assert_int_eq(phase_sends(s, CS_TS_REDUCE, NULL), 31);
  ck_assert_int_eq(phase_sends(s, CS_TS_BCAST, NULL), 31);
  ck_assert_int_eq(phase_sends(s, CS_TS_REDUCE, node_of), 28);
  ck_assert_int_eq(phase_sends(s, CS_TS_BCAST, node_of), 7);
  cs_ts_free(s);
  s = gen("lam7", &prm); /* LAM 7's broadcast follows the reduce tree */
  ck_assert_int_eq(phase_sends(s, CS_TS_BCAST, node_of), 28);
  cs_ts_free(s);
  g_free(node_of);
}
END_TEST

START_TEST(test_lam7_bcast_is_reduce_backwards)
{
  cs_tree_gen_params prm = params(32, 8, 4, NULL, 1, 0);
  cs_tree_script *s = gen("lam7", &prm);
  EXPECT(s, CS_TS_BCAST, 0, "send 16, send 8, send 4, send 2, send 1");
  EXPECT(s, CS_TS_BCAST, 12, "recv 8, send 14, send 13");
  EXPECT(s, CS_TS_REDUCE, 12, "recv 13, recv 14, send 8");
  cs_ts_free(s);
  for (int n = 5; n <= 64; n++) {
    prm.n = n;
    s = gen("lam7", &prm);
    assert_mirrored(s);
    cs_tree_script *t = gen("lam", &prm);
    for (int r = 0; r < n; r++) {
      char *a = cmds(s, CS_TS_REDUCE, r), *b = cmds(t, CS_TS_REDUCE, r);
      ck_assert_str_eq(a, b);
      g_free(a);
      g_free(b);
    }
    cs_ts_free(t);
    cs_ts_free(s);
  }
  prm.n = 4;
  s = gen("lam7", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "recv 3, recv 2, recv 1");
  EXPECT(s, CS_TS_BCAST, 0, "send 1, send 2, send 3");
  cs_ts_free(s);
}
END_TEST

/* ---- linear ---- */

START_TEST(test_linear_5)
{
  cs_tree_gen_params prm = params(5, 5, 1, NULL, 1, 0);
  cs_tree_script *s = gen("linear", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "recv 1, recv 2, recv 3, recv 4");
  EXPECT(s, CS_TS_BCAST, 0, "send 1, send 2, send 3, send 4");
  for (int r = 1; r < 5; r++) {
    EXPECT(s, CS_TS_REDUCE, r, "send 0");
    EXPECT(s, CS_TS_BCAST, r, "recv 0");
  }
  cs_ts_free(s);
}
END_TEST

/* ---- hierarchical ---- */

/* Section 5.1: 4-way cluster, 8 nodes x 4, 32 ranks round-robin: node k
 * holds k, k+8, k+16, k+24. */
START_TEST(test_hierarchical_8x4)
{
  int *node_of = round_robin(32, 8);
  cs_tree_gen_params prm = params(32, 8, 4, node_of, 1, 0);
  cs_tree_script *s = gen("hierarchical", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "recv 8, recv 16, recv 24, recv 1, recv 2, recv 3, recv 4, recv 5, recv 6, recv 7");
  EXPECT(s, CS_TS_REDUCE, 8, "send 0");
  EXPECT(s, CS_TS_REDUCE, 3, "recv 11, recv 19, recv 27, send 0");
  EXPECT(s, CS_TS_REDUCE, 27, "send 3");
  EXPECT(s, CS_TS_BCAST, 0, "send 7, send 6, send 5, send 4, send 3, send 2, send 1, send 24, send 16, send 8");
  EXPECT(s, CS_TS_BCAST, 3, "recv 0, send 27, send 19, send 11");
  assert_mirrored(s);
  ck_assert_int_eq(both_phases(s, NULL), 2 * 31);
  ck_assert_int_eq(both_phases(s, node_of), 2 * 7);
  cs_ts_free(s);
  g_free(node_of);
}
END_TEST

/* Section 5.2: 8-way cluster, 4 nodes x 8, two groups of 4 per node, 32
 * ranks round-robin: node k holds k, k+4, ..., k+28; its groups are
 * {k, k+4, k+8, k+12} and {k+16, ..., k+28}.  Eight groups: seven local
 * roots forward to rank 0, 2 (2*4 - 1) messages with the broadcast; one of
 * those roots (16) is on rank 0's node, so 2 * 2 * 3 = 12 cross nodes. */
START_TEST(test_hierarchical_two_groups_4x8)
{
  int *node_of = round_robin(32, 4);
  cs_tree_gen_params prm = params(32, 4, 8, node_of, 2, 0);
  cs_tree_script *s = gen("hierarchical", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "recv 4, recv 8, recv 12, recv 16, recv 1, recv 2, recv 3, recv 17, recv 18, recv 19");
  EXPECT(s, CS_TS_REDUCE, 16, "recv 20, recv 24, recv 28, send 0");
  EXPECT(s, CS_TS_REDUCE, 1, "recv 5, recv 9, recv 13, send 0");
  EXPECT(s, CS_TS_REDUCE, 17, "recv 21, recv 25, recv 29, send 0");
  EXPECT(s, CS_TS_REDUCE, 12, "send 0");
  EXPECT(s, CS_TS_REDUCE, 29, "send 17");
  assert_mirrored(s);
  int roots_to_zero = 0; /* ranks that receive, then send to 0 */
  for (int r = 1; r < 32; r++) {
    const cs_ts_list *l = &s->phase[CS_TS_REDUCE][r];
    roots_to_zero += l->n > 1 && l->cmd[l->n - 1].peer == 0;
  }
  ck_assert_int_eq(2 * roots_to_zero, 2 * (2 * 4 - 1));
  ck_assert_int_eq(both_phases(s, NULL), 2 * 31);
  ck_assert_int_eq(both_phases(s, node_of), 2 * 2 * 3);
  cs_ts_free(s);
  g_free(node_of);
}
END_TEST

/* Uneven nodes: 3 x 5 block placement of 13 ranks: nodes {0..4}, {5..9},
 * {10, 11, 12}; two groups: {0,1,2},{3,4}; {5,6,7},{8,9}; {10,11},{12}. */
START_TEST(test_hierarchical_uneven_groups)
{
  int *node_of = block(13, 5);
  cs_tree_gen_params prm = params(13, 3, 5, node_of, 2, 0);
  cs_tree_script *s = gen("hierarchical", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "recv 1, recv 2, recv 3, recv 5, recv 8, recv 10, recv 12");
  EXPECT(s, CS_TS_REDUCE, 3, "recv 4, send 0");
  EXPECT(s, CS_TS_REDUCE, 5, "recv 6, recv 7, send 0");
  EXPECT(s, CS_TS_REDUCE, 10, "recv 11, send 0");
  EXPECT(s, CS_TS_REDUCE, 12, "send 0");
  cs_ts_free(s);
  g_free(node_of);
}
END_TEST

/* Node numbers are labels: relabelling them, or putting rank 0 on a node
 * other than 0, changes nothing. */
START_TEST(test_placement_labels_do_not_matter)
{
  const char *fams[] = {"hierarchical", "kary-node"};
  int n = 23, *a = round_robin(n, 5), *b = g_new(int, n);
  for (int r = 0; r < n; r++)
    b[r] = 7 * ((a[r] + 3) % 5) + 2;
  for (size_t f = 0; f < G_N_ELEMENTS(fams); f++)
    for (int groups = 1; groups <= 3; groups++) {
      cs_tree_gen_params pa = params(n, 5, 5, a, groups, 2), pb = params(n, 5, 5, b, groups, 2);
      cs_tree_script *x = gen(fams[f], &pa), *y = gen(fams[f], &pb);
      assert_same_scripts(x, y);
      cs_ts_free(x);
      cs_ts_free(y);
    }
  g_free(a);
  g_free(b);
}
END_TEST

/* ---- kary-node ---- */

START_TEST(test_kary_node_binary_8x4)
{
  int *node_of = round_robin(32, 8);
  cs_tree_gen_params prm = params(32, 8, 4, node_of, 1, 2);
  cs_tree_script *s = gen("kary-node", &prm);
  EXPECT(s, CS_TS_REDUCE, 0, "recv 8, recv 16, recv 24, recv 1, recv 2");
  EXPECT(s, CS_TS_REDUCE, 1, "recv 9, recv 17, recv 25, recv 3, recv 4, send 0");
  EXPECT(s, CS_TS_REDUCE, 3, "recv 11, recv 19, recv 27, recv 7, send 1");
  EXPECT(s, CS_TS_REDUCE, 7, "recv 15, recv 23, recv 31, send 3");
  EXPECT(s, CS_TS_BCAST, 1, "recv 0, send 4, send 3, send 25, send 17, send 9");
  assert_mirrored(s);
  ck_assert_int_eq(both_phases(s, NULL), 2 * 31);
  ck_assert_int_eq(both_phases(s, node_of), 2 * 7);
  cs_ts_free(s);
  prm.groups_per_node = 2; /* groups {k, k+8}, {k+16, k+24}: second root to the leader */
  s = gen("kary-node", &prm);
  EXPECT(s, CS_TS_REDUCE, 1, "recv 9, recv 17, recv 3, recv 4, send 0");
  EXPECT(s, CS_TS_REDUCE, 17, "recv 25, send 1");
  ck_assert_int_eq(both_phases(s, node_of), 2 * 7);
  cs_ts_free(s);
  g_free(node_of);
}
END_TEST

START_TEST(test_kary_node_wide_is_hierarchical)
{
  static const int wide[][2] = {{2, 2}, {4, 8}, {8, 4}, {16, 2}, {3, 5}, {5, 3}};
  for (size_t i = 0; i < G_N_ELEMENTS(wide); i++) {
    int nodes = wide[i][0], cores = wide[i][1], n = nodes * cores;
    int *node_of = round_robin(n, nodes);
    cs_tree_gen_params prm = params(n, nodes, cores, node_of, 1, nodes - 1);
    cs_tree_script *k = gen("kary-node", &prm), *h = gen("hierarchical", &prm);
    assert_same_scripts(k, h);
    cs_ts_free(k);
    cs_ts_free(h);
    g_free(node_of);
  }
}
END_TEST

/* ---- YAML ---- */

/* Every generator's script survives cs_ts_to_yaml and cs_ts_parse. */
START_TEST(test_yaml_round_trip)
{
  int *node_of = round_robin(32, 4);
  for (size_t i = 0; i < cs_tree_gen_count(); i++) {
    cs_tree_gen_params prm = params(32, 4, 8, node_of, 2, 3);
    prm.order = CS_TS_ARRIVAL_ORDER;
    cs_tree_script *s = cs_tree_gen_at(i)->generate(&prm);
    char *y = cs_ts_to_yaml(s);
    GError *err = NULL;
    cs_tree_script *t = cs_ts_parse(y, strlen(y), "round-trip", &err);
    ck_assert_msg(t != NULL, "%s: %s", s->name, err ? err->message : "?");
    ck_assert_str_eq(t->name, s->name);
    ck_assert_int_eq(t->order, s->order);
    assert_same_scripts(s, t);
    cs_ts_free(t);
    g_free(y);
    cs_ts_free(s);
  }
  g_free(node_of);
}
END_TEST

/* ---- every generator, every shape ---- */

static int distinct(const int *v, int n)
{
  int d = 0;
  for (int r = 0; r < n; r++) {
    bool seen = false;
    for (int q = 0; q < r && !seen; q++)
      seen = v[q] == v[r];
    d += !seen;
  }
  return d;
}

static void check_one(const char *name, const cs_tree_gen_params *prm)
{
  cs_tree_script *s = gen(name, prm);
  GError *err = NULL;
  bool ok = cs_ts_validate(s, &err);
  ck_assert_msg(ok, "%s n=%d %dx%d g=%d k=%d: %s", name, prm->n, prm->nodes, prm->cores,
                prm->groups_per_node, prm->fanout, err ? err->message : "?");
  int n = prm->n, m = cs_ts_messages(s), x = cs_ts_internode_messages(s, prm->node_of);
  ck_assert_int_eq(m, 2 * (n - 1));
  ck_assert_int_eq(m, both_phases(s, NULL));
  ck_assert_int_eq(x, both_phases(s, prm->node_of));
  bool hier = strcmp(name, "hierarchical") == 0, kary = strcmp(name, "kary-node") == 0;
  if (kary || (hier && prm->groups_per_node <= 1))
    ck_assert_int_eq(x, 2 * (distinct(prm->node_of, n) - 1));
  if (hier || kary)
    assert_mirrored(s);
  cs_ts_free(s);
}

/* groups_per_node 0..3 and fanout 0..3 where the family reads them. */
static void check_shape(int nodes, int cores, int n, bool rr)
{
  int *node_of = rr ? round_robin(n, nodes) : block(n, cores);
  for (size_t i = 0; i < cs_tree_gen_count(); i++) {
    const char *name = cs_tree_gen_at(i)->name;
    bool kary = strcmp(name, "kary-node") == 0;
    int max_groups = kary || strcmp(name, "hierarchical") == 0 ? 3 : 0, max_fanout = kary ? 3 : 0;
    for (int groups = 0; groups <= max_groups; groups++)
      for (int fanout = 0; fanout <= max_fanout; fanout++) {
        cs_tree_gen_params prm = params(n, nodes, cores, node_of, groups, fanout);
        prm.order = (n + groups + fanout) % 2 ? CS_TS_ARRIVAL_ORDER : CS_TS_SCRIPTED_ORDER;
        check_one(name, &prm);
      }
  }
  g_free(node_of);
}

static const int shapes[][2] = {{1, 1}, {2, 2}, {4, 8}, {8, 4}, {16, 2}, {3, 5}, {5, 3}};

START_TEST(test_all_generators_validate)
{
  int nodes = shapes[_i][0], cores = shapes[_i][1];
  for (int n = 1; n <= 64; n++) {
    check_shape(nodes, cores, n, true);
    check_shape(nodes, cores, n, false);
  }
}
END_TEST

static Suite *tree_gen_suite(void)
{
  Suite *s = suite_create("tree_gen");
  TCase *tc = tcase_create("trees");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_registry_lists_families);
  tcase_add_test(tc, test_script_header);
  tcase_add_test(tc, test_unusable_params_give_null);
  tcase_add_test(tc, test_lam_32_reduce_ranks_from_paper);
  tcase_add_test(tc, test_lam_8_spelled_out);
  tcase_add_test(tc, test_lam_linear_up_to_4);
  tcase_add_test(tc, test_lam_32_on_8_nodes_internode);
  tcase_add_test(tc, test_lam7_bcast_is_reduce_backwards);
  tcase_add_test(tc, test_linear_5);
  tcase_add_test(tc, test_hierarchical_8x4);
  tcase_add_test(tc, test_hierarchical_two_groups_4x8);
  tcase_add_test(tc, test_hierarchical_uneven_groups);
  tcase_add_test(tc, test_placement_labels_do_not_matter);
  tcase_add_test(tc, test_kary_node_binary_8x4);
  tcase_add_test(tc, test_kary_node_wide_is_hierarchical);
  tcase_add_test(tc, test_yaml_round_trip);
  tcase_add_loop_test(tc, test_all_generators_validate, 0, (int)G_N_ELEMENTS(shapes));
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(tree_gen_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
