/* Unit tests of the scripted reduce/broadcast trees (seed 002, Section 4;
 * sim/tree_script.[ch]):
 *  - the example experiments/tree-scripts/8way-two-groups.yaml (Section 5.2) and a few literal
 *    scripts parse, with defaults for root and receive_order;
 *  - to_yaml -> parse gives the same script and byte-identical YAML, also
 *    with names that need quoting, and through cs_ts_save / cs_ts_load;
 *  - broken scripts are refused with a message naming the rank and the
 *    command (and the line when they come from YAML): missing rank, send
 *    without receive, receive without send, cycle, double counting, a root
 *    missing a contribution, bcast sending before receiving, malformed YAML,
 *    unknown key, peer out of range, and more;
 *  - the LAM-like binomial tree of 32 ranks, checked by hand: rank 12's
 *    reduce is [recv 13, recv 14, send 8], and its message counts. */
#include "sim/checks/tree_script_check.h"

#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers ---- */

static const char *srcdir(void)
{
  const char *d = g_getenv("COLLSIM_SRCDIR");
  if (d && *d)
    return d;
#ifdef COLLSIM_SRCDIR
  return COLLSIM_SRCDIR;
#else
  return ".";
#endif
}

static cs_tree_script *parse(const char *text, GError **err)
{
  return cs_ts_parse(text, strlen(text), "t.yaml", err);
}

/* The text is refused with an error whose message holds every needle. */
static void refused_with(const char *text, ...)
{
  GError *err = NULL;
  cs_tree_script *s = parse(text, &err);
  ck_assert_msg(s == NULL, "accepted:\n%s", text);
  ck_assert_ptr_nonnull(err);
  ck_assert(err->domain == CS_TS_ERROR);
  va_list ap;
  va_start(ap, text);
  for (const char *needle; (needle = va_arg(ap, const char *));)
    ck_assert_msg(strstr(err->message, needle), "message '%s' lacks '%s'", err->message, needle);
  va_end(ap);
  g_error_free(err);
}

/* cs_ts_validate refuses s with a message holding the needle. */
static void invalid_with(const cs_tree_script *s, const char *needle)
{
  GError *err = NULL;
  ck_assert(!cs_ts_validate(s, &err));
  ck_assert_ptr_nonnull(err);
  ck_assert_msg(strstr(err->message, needle), "message '%s' lacks '%s'", err->message, needle);
  g_error_free(err);
}

static void assert_same_script(const cs_tree_script *a, const cs_tree_script *b)
{
  ck_assert_str_eq(a->name, b->name);
  ck_assert_int_eq(a->n, b->n);
  ck_assert_int_eq(a->root, b->root);
  ck_assert_int_eq(a->order, b->order);
  for (int ph = 0; ph < 2; ph++)
    for (int r = 0; r < a->n; r++) {
      const cs_ts_list *x = &a->phase[ph][r], *y = &b->phase[ph][r];
      ck_assert_int_eq(x->n, y->n);
      for (int i = 0; i < x->n; i++) {
        ck_assert_int_eq(x->cmd[i].kind, y->cmd[i].kind);
        ck_assert_int_eq(x->cmd[i].peer, y->cmd[i].peer);
      }
    }
}

/* to_yaml -> parse gives the same script and the same bytes. */
static void assert_round_trip(const cs_tree_script *s)
{
  char *y1 = cs_ts_to_yaml(s);
  GError *err = NULL;
  cs_tree_script *t = parse(y1, &err);
  ck_assert_msg(t != NULL, "%s\n%s", err ? err->message : "", y1);
  assert_same_script(s, t);
  char *y2 = cs_ts_to_yaml(t);
  ck_assert_str_eq(y1, y2);
  g_free(y1);
  g_free(y2);
  cs_ts_free(t);
}

/* LAM-MPI's logarithmic trees for n ranks (Figure 2): rank r's parent is r
 * with its lowest set bit cleared; reduce takes the children lowest first,
 * bcast sends to them highest first. */
static cs_tree_script *binomial(int n)
{
  cs_tree_script *s = cs_ts_new(n, "lam");
  for (int r = 0; r < n; r++) {
    int low = r ? (r & -r) : 1 << 30;
    for (int b = 1; b < low && r + b < n; b <<= 1)
      cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_RECV, r + b);
    if (r)
      cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_SEND, r & (r - 1));
    if (r)
      cs_ts_add(s, CS_TS_BCAST, r, CS_TS_RECV, r & (r - 1));
    int top = 1;
    while (top * 2 < low && r + top * 2 < n)
      top *= 2;
    for (int b = top; b >= 1; b >>= 1)
      if (b < low && r + b < n)
        cs_ts_add(s, CS_TS_BCAST, r, CS_TS_SEND, r + b);
  }
  return s;
}

/* Every rank sends straight to the root and back (Section 5.1's linear scheme). */
static cs_tree_script *linear(int n)
{
  cs_tree_script *s = cs_ts_new(n, "linear");
  for (int r = 1; r < n; r++) {
    cs_ts_add(s, CS_TS_REDUCE, 0, CS_TS_RECV, r);
    cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_SEND, 0);
    cs_ts_add(s, CS_TS_BCAST, 0, CS_TS_SEND, r);
    cs_ts_add(s, CS_TS_BCAST, r, CS_TS_RECV, 0);
  }
  return s;
}

static void expect_cmds(const cs_tree_script *s, cs_ts_phase ph, int rank, const char *want)
{
  GString *got = g_string_new(NULL);
  const cs_ts_list *l = &s->phase[ph][rank];
  for (int i = 0; i < l->n; i++)
    g_string_append_printf(got, "%s%s %d", i ? ", " : "", l->cmd[i].kind == CS_TS_SEND ? "send" : "recv",
                           l->cmd[i].peer);
  ck_assert_str_eq(got->str, want);
  g_string_free(got, TRUE);
}

/* A valid 3-rank linear script; tests replace one line of it. */
#define HEAD3 "name: t\nn: 3\nroot: 0\nreceive_order: scripted\n"
#define BCAST3 "bcast:\n  0: [send 1, send 2]\n  1: [recv 0]\n  2: [recv 0]\n"
#define REDUCE3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 0]\n  2: [send 0]\n"

/* -------------------------------------------------------------- parsing ---- */

START_TEST(test_example_file)
{
  char *path = g_build_filename(srcdir(), "experiments", "tree-scripts", "8way-two-groups.yaml", NULL);
  GError *err = NULL;
  cs_tree_script *s = cs_ts_load(path, &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "");
  ck_assert_str_eq(s->name, "8way-two-groups");
  ck_assert_int_eq(s->n, 32);
  ck_assert_int_eq(s->root, 0);
  ck_assert_int_eq(s->order, CS_TS_SCRIPTED_ORDER);
  expect_cmds(s, CS_TS_REDUCE, 0,
              "recv 4, recv 8, recv 12, recv 1, recv 2, recv 3, recv 16, recv 17, recv 18, recv 19");
  expect_cmds(s, CS_TS_REDUCE, 17, "recv 21, recv 25, recv 29, send 0");
  expect_cmds(s, CS_TS_REDUCE, 29, "send 17");
  expect_cmds(s, CS_TS_BCAST, 0,
              "send 1, send 2, send 3, send 16, send 17, send 18, send 19, send 4, send 8, send 12");
  expect_cmds(s, CS_TS_BCAST, 18, "recv 0, send 22, send 26, send 30");
  int node_of[32];
  for (int r = 0; r < 32; r++)
    node_of[r] = r % 4;
  ck_assert_int_eq(cs_ts_messages(s), 62);
  ck_assert_int_eq(cs_ts_internode_messages(s, node_of), 12); /* 6 leader sums up, 6 results down */
  /* every group is on one node and has 4 ranks: one leader and 3 members */
  for (int r = 0; r < 32; r++) {
    const cs_ts_list *l = &s->phase[CS_TS_REDUCE][r];
    cs_ts_cmd last = l->cmd[l->n - 1];
    if (r != 0 && l->n == 1)
      ck_assert_int_eq(node_of[last.peer], node_of[r]);
    else if (r != 0)
      ck_assert_int_eq(l->n, 4);
  }
  assert_round_trip(s);
  cs_ts_free(s);
  g_free(path);
}
END_TEST

START_TEST(test_parse_literals)
{
  GError *err = NULL;
  cs_tree_script *s = parse(HEAD3 REDUCE3 BCAST3, &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "");
  expect_cmds(s, CS_TS_REDUCE, 0, "recv 1, recv 2");
  expect_cmds(s, CS_TS_BCAST, 2, "recv 0");
  ck_assert_int_eq(cs_ts_messages(s), 4);
  cs_ts_free(s);

  /* one process, flow style, root and receive_order left out */
  s = parse("name: one\nn: 1\nreduce: {0: []}\nbcast: {0: []}\n", &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "");
  ck_assert_int_eq(s->n, 1);
  ck_assert_int_eq(s->root, 0);
  ck_assert_int_eq(s->order, CS_TS_SCRIPTED_ORDER);
  ck_assert_int_eq(cs_ts_messages(s), 0);
  cs_ts_free(s);

  /* block lists, ranks out of order, a root other than 0, arrival order */
  s = parse("# a comment\nname: \"root two\"\nn: 3\nroot: 2\nreceive_order: arrival\n"
            "reduce:\n  1:\n    - send 2\n  2:\n    - recv 0\n    - recv 1\n  0: [send 2]\n"
            "bcast:\n  2: [send 0, send 1]\n  0: [recv 2]\n  1: [recv  2]\n",
            &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "");
  ck_assert_str_eq(s->name, "root two");
  ck_assert_int_eq(s->root, 2);
  ck_assert_int_eq(s->order, CS_TS_ARRIVAL_ORDER);
  expect_cmds(s, CS_TS_REDUCE, 2, "recv 0, recv 1");
  expect_cmds(s, CS_TS_BCAST, 1, "recv 2");
  assert_round_trip(s);
  cs_ts_free(s);
}
END_TEST

/* Rank 1 waits for 2 before 0 has sent to it: blocking receives wait, they do
 * not deadlock; and a receive may come before the message is sent. */
START_TEST(test_waiting_is_not_deadlock)
{
  GError *err = NULL;
  cs_tree_script *s = parse("name: chain\nn: 4\n"
                            "reduce:\n  0: [recv 1]\n  1: [recv 2, send 0]\n  2: [recv 3, send 1]\n  3: [send 2]\n"
                            "bcast:\n  0: [send 1]\n  1: [recv 0, send 2]\n  2: [recv 1, send 3]\n  3: [recv 2]\n",
                            &err);
  ck_assert_msg(s != NULL, "%s", err ? err->message : "");
  cs_ts_free(s);
}
END_TEST

/* ----------------------------------------------------------- round trip ---- */

START_TEST(test_round_trip)
{
  cs_tree_script *s = binomial(32);
  assert_round_trip(s);
  s->order = CS_TS_ARRIVAL_ORDER;
  assert_round_trip(s);
  cs_ts_free(s);
  s = linear(200);
  assert_round_trip(s);
  cs_ts_free(s);
  s = binomial(1000);
  assert_round_trip(s);
  cs_ts_free(s);
  s = cs_ts_new(1, "one");
  assert_round_trip(s);
  cs_ts_free(s);
}
END_TEST

START_TEST(test_round_trip_quoted_names)
{
  const char *names[] = {"8-way: two groups", "\"quoted\" \\ back", "tab\tnew\nline", "#hash", "-dash",
                         "ünïcödé \xe2\x80\xa8 sep", "null", "123", "yes", " lead space", "a b"};
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    cs_tree_script *s = linear(3);
    g_free(s->name);
    s->name = g_strdup(names[i]);
    assert_round_trip(s);
    char *y = cs_ts_to_yaml(s);
    ck_assert_msg(strncmp(strchr(y, '\n') + 1, "name: ", 6) == 0, "%s", y); /* the comment stays on one line */
    g_free(y);
    cs_ts_free(s);
  }
}
END_TEST

START_TEST(test_yaml_format)
{
  cs_tree_script *s = linear(3);
  char *y = cs_ts_to_yaml(s);
  ck_assert_str_eq(y, "# collsim tree script linear (seed 002, Section 4): 3 processes, root 0, 4 messages\n"
                      "name: linear\nn: 3\nroot: 0\nreceive_order: scripted\n"
                      "reduce:\n  0: [recv 1, recv 2]\n  1: [send 0]\n  2: [send 0]\n"
                      "bcast:\n  0: [send 1, send 2]\n  1: [recv 0]\n  2: [recv 0]\n");
  g_free(y);
  cs_ts_free(s);
}
END_TEST

START_TEST(test_save_and_load)
{
  GError *err = NULL;
  char *dir = g_dir_make_tmp("tree-script-XXXXXX", &err);
  ck_assert_msg(dir != NULL, "%s", err ? err->message : "");
  char *path = g_build_filename(dir, "lam.yaml", NULL);
  cs_tree_script *s = binomial(32);
  ck_assert(cs_ts_save(s, path, &err));
  cs_tree_script *t = cs_ts_load(path, &err);
  ck_assert_msg(t != NULL, "%s", err ? err->message : "");
  assert_same_script(s, t);
  cs_ts_free(t);
  g_unlink(path);

  /* unreadable / unwritable paths */
  t = cs_ts_load(path, &err);
  ck_assert_ptr_null(t);
  ck_assert(strstr(err->message, path) && strstr(err->message, "cannot read the tree script"));
  g_clear_error(&err);
  char *bad = g_build_filename(dir, "no-such-dir", "x.yaml", NULL);
  ck_assert(!cs_ts_save(s, bad, &err));
  ck_assert(strstr(err->message, "cannot write the tree script"));
  g_clear_error(&err);
  g_free(bad);
  cs_ts_free(s);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
}
END_TEST

/* ------------------------------------------------------- broken scripts ---- */

START_TEST(test_missing_rank)
{
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 0]\n" BCAST3, "t.yaml:5:",
               "reduce: rank 2 is missing", NULL);
  refused_with(HEAD3 REDUCE3 "bcast:\n  0: [send 1, send 2]\n", "t.yaml:9:", "bcast: rank 1 is missing",
               "(and 1 more)", NULL);
}
END_TEST

START_TEST(test_send_without_receive)
{
  refused_with(HEAD3 "reduce:\n  0: [recv 1]\n  1: [send 0]\n  2: [send 0]\n" BCAST3, "t.yaml:8:",
               "reduce, rank 2, command 1 (send 0): rank 0 never receives this message", "never reaches the root",
               NULL);
  refused_with(HEAD3 REDUCE3 "bcast:\n  0: [send 1, send 2, send 1]\n  1: [recv 0]\n  2: [recv 0]\n",
               "t.yaml:10:", "bcast, rank 0, command 3 (send 1): rank 1 never receives this message", NULL);
}
END_TEST

START_TEST(test_receive_without_send)
{
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 0]\n  2: [recv 1, send 0]\n" BCAST3, "t.yaml:8:",
               "reduce, rank 2, command 1 (recv 1): waits forever: rank 1 ends without a matching send to rank 2",
               NULL);
}
END_TEST

START_TEST(test_cycle)
{
  /* 0 waits for 1, which waits for 0 */
  refused_with("name: t\nn: 2\nreduce:\n  0: [recv 1]\n  1: [recv 0, send 0]\n"
               "bcast:\n  0: [send 1]\n  1: [recv 0]\n",
               "t.yaml:4:", "reduce, rank 0, command 1 (recv 1): deadlock",
               "rank 0 waits for rank 1, rank 1 waits for rank 0 (its command 1)", NULL);
  /* a longer cycle reached through a waiting rank outside it */
  refused_with("name: t\nn: 4\nreduce:\n  0: [recv 3]\n  1: [recv 3, send 2]\n  2: [recv 1, send 3]\n"
               "  3: [recv 2, send 0]\n"
               "bcast:\n  0: [send 1, send 2, send 3]\n  1: [recv 0]\n  2: [recv 0]\n  3: [recv 0]\n",
               "reduce, rank 1, command 1 (recv 3): deadlock",
               "rank 1 waits for rank 3, rank 3 waits for rank 2 (its command 1), rank 2 waits for rank 1", NULL);
}
END_TEST

START_TEST(test_double_counted_contribution)
{
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2, recv 1]\n  1: [send 0, send 0]\n  2: [send 0]\n" BCAST3,
               "t.yaml:7:", "reduce, rank 1, command 2 (send 0): a second send", "counted twice", NULL);
  /* a rank forwarding a child's sum after its own send */
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 1]\n  1: [send 0, recv 2, send 0]\n  2: [send 1]\n" BCAST3,
               "reduce, rank 1, command 2 (recv 2): receives after sending its partial sum (command 1)", NULL);
}
END_TEST

START_TEST(test_root_missing_contribution)
{
  refused_with(HEAD3 "reduce:\n  0: [recv 1]\n  1: [send 0]\n  2: []\n" BCAST3, "t.yaml:8:",
               "reduce, rank 2, no commands: never sends its partial sum, so the root misses its contribution", NULL);
  refused_with(HEAD3 "reduce:\n  0: []\n  1: [send 2]\n  2: [recv 1]\n" BCAST3, "t.yaml:8:",
               "reduce, rank 2, after command 1 (recv 1): never sends its partial sum", NULL);
  /* the root waiting for a rank that ends without sending: that rank is named */
  refused_with(HEAD3 "reduce:\n  0: [recv 1]\n  1: [recv 2]\n  2: [send 1]\n" BCAST3, "t.yaml:7:",
               "reduce, rank 1, after command 1 (recv 2): never sends its partial sum", NULL);
  /* the root sending its sum away */
  refused_with(HEAD3 "reduce:\n  0: [recv 1, send 2]\n  1: [send 0]\n  2: [recv 0]\n" BCAST3,
               "reduce, rank 0, command 2 (send 2): the root sends in the reduce", NULL);
}
END_TEST

START_TEST(test_bcast_send_before_receive)
{
  refused_with(HEAD3 REDUCE3 "bcast:\n  0: [send 1]\n  1: [send 2, recv 0]\n  2: [recv 1]\n", "t.yaml:11:",
               "bcast, rank 1, command 1 (send 2): sends before it holds the root's value", NULL);
  refused_with(HEAD3 REDUCE3 "bcast:\n  0: [send 1]\n  1: [recv 0]\n  2: []\n",
               "bcast, rank 2, no commands: never receives the root's value", NULL);
  refused_with(HEAD3 REDUCE3 "bcast:\n  0: [send 1, send 2]\n  1: [recv 0, send 2]\n  2: [recv 0, recv 1]\n",
               "bcast, rank 2, command 2 (recv 1): receives the root's value a second time (command 1", NULL);
  refused_with(HEAD3 REDUCE3 "bcast:\n  0: [send 1, recv 1]\n  1: [recv 0, send 0, send 2]\n  2: [recv 1]\n",
               "bcast, rank 0, command 2 (recv 1): the root receives in the broadcast", NULL);
}
END_TEST

START_TEST(test_malformed_yaml)
{
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2\n  1: [send 0]\n" BCAST3, "t.yaml:", "YAML syntax error", NULL);
  refused_with("name: t\nn: 3\n  reduce: x\n", "t.yaml:3:", "YAML syntax error", NULL);
  refused_with("", "t.yaml:1:", "empty", NULL);
  refused_with("- a\n- b\n", "t.yaml:1:", "expected a mapping", NULL);
  refused_with(HEAD3 REDUCE3 BCAST3 "---\nname: again\n", "t.yaml:14:", "only one YAML document", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [sned 0]\n  2: [send 0]\n" BCAST3, "t.yaml:7:",
               "reduce, rank 1, command 1: malformed command 'sned 0'", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send x]\n  2: [send 0]\n" BCAST3, "t.yaml:7:",
               "malformed command 'send x'", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 0 1]\n  2: [send 0]\n" BCAST3,
               "malformed command 'send 0 1'", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 99999999999]\n  2: [send 0]\n" BCAST3,
               "malformed command 'send 99999999999'", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [[send 0]]\n  2: [send 0]\n" BCAST3, "t.yaml:7:",
               "reduce, rank 1, command 1: expected 'recv N' or 'send N', found a list", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: send 0\n  2: [send 0]\n" BCAST3, "t.yaml:7:",
               "reduce, rank 1: expected a list of commands", NULL);
  refused_with(HEAD3 "reduce: [recv 1]\n" BCAST3, "t.yaml:5:", "reduce: expected a mapping", NULL);
}
END_TEST

START_TEST(test_bad_keys_and_numbers)
{
  refused_with("name: t\nn: 3\ncolour: red\n" REDUCE3 BCAST3, "t.yaml:3:", "unknown key 'colour'", NULL);
  refused_with(HEAD3 "n: 3\n" REDUCE3 BCAST3, "t.yaml:5:", "key 'n' appears twice (first at line 2)", NULL);
  refused_with("name: t\n" REDUCE3 BCAST3, "t.yaml:1:", "missing key 'n'", NULL);
  refused_with("n: 3\n" REDUCE3 BCAST3, "missing key 'name'", NULL);
  refused_with("name: t\nn: three\n" REDUCE3 BCAST3, "t.yaml:2:", "n: 'three' is not an integer", NULL);
  refused_with("name: t\nn: \"3\"\n" REDUCE3 BCAST3, "t.yaml:2:", "n: expected an integer", NULL);
  refused_with("name: t\nn: 0\n" REDUCE3 BCAST3, "t.yaml:2:", "n: 0 is out of range", NULL);
  refused_with("name: t\nn: 16000000\n" REDUCE3 BCAST3, "t.yaml:2:", "cannot list that many ranks", NULL);
  refused_with("name: t\nn: 3\nroot: 3\n" REDUCE3 BCAST3, "t.yaml:3:", "root: 3 is out of range (0..2)", NULL);
  refused_with("name: t\nn: 3\nreceive_order: random\n" REDUCE3 BCAST3, "t.yaml:3:",
               "receive_order: expected scripted or arrival, found 'random'", NULL);
  refused_with("name: ''\nn: 3\n" REDUCE3 BCAST3, "t.yaml:1:", "name: expected a non-empty string", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 0]\n  1: [send 0]\n" BCAST3, "t.yaml:8:",
               "reduce: rank 1 appears twice (first at line 7)", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 0]\n  3: [send 0]\n" BCAST3, "t.yaml:8:",
               "reduce: rank 3 is out of range (0..2)", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 0]\n  two: [send 0]\n" BCAST3, "t.yaml:8:",
               "reduce: rank: 'two' is not an integer", NULL);
}
END_TEST

START_TEST(test_peer_out_of_range)
{
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 40]\n  2: [send 0]\n" BCAST3, "t.yaml:7:",
               "reduce, rank 1, command 1 (send 40): peer 40 is out of range (ranks 0..2)", NULL);
  refused_with(HEAD3 REDUCE3 "bcast:\n  0: [send 1, send -2]\n  1: [recv 0]\n  2: [recv 0]\n", "t.yaml:10:",
               "bcast, rank 0, command 2 (send -2): peer -2 is out of range", NULL);
  refused_with(HEAD3 "reduce:\n  0: [recv 1, recv 2]\n  1: [send 0]\n  2: [recv 2, send 0]\n" BCAST3,
               "reduce, rank 2, command 1 (recv 2): a rank cannot recv from itself", NULL);
}
END_TEST

/* Scripts built in C: the same checks, messages without an origin. */
START_TEST(test_validate_built_scripts)
{
  GError *err = NULL;
  cs_tree_script *s = linear(5);
  ck_assert(cs_ts_validate(s, &err));
  cs_ts_add(s, CS_TS_REDUCE, 3, CS_TS_SEND, 0);
  invalid_with(s, "reduce, rank 3, command 2 (send 0): a second send");
  cs_ts_free(s);

  s = linear(5);
  s->root = 7;
  invalid_with(s, "the root is not a rank");
  cs_ts_free(s);

  s = linear(5);
  s->phase[CS_TS_BCAST][4].cmd[0].peer = 4;
  invalid_with(s, "bcast, rank 4, command 1 (recv 4): a rank cannot recv from itself");
  cs_ts_free(s);

  /* a long chain of ranks, each waiting for the next, ending in a rank that
   * sends elsewhere: reported at the end of the chain (the replay's wait chain) */
  s = cs_ts_new(5000, "chain");
  for (int r = 0; r < 4999; r++) {
    cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_RECV, r + 1);
    if (r)
      cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_SEND, r - 1);
  }
  cs_ts_add(s, CS_TS_REDUCE, 4999, CS_TS_SEND, 0); /* to the wrong rank: 4998 waits forever */
  invalid_with(s, "reduce, rank 4998, command 1 (recv 4999): waits forever: rank 4999 ends without a matching send");
  cs_ts_free(s);
}
END_TEST

/* ---------------------------------------------------------------- LAM ---- */

START_TEST(test_lam_tree)
{
  cs_tree_script *s = binomial(32);
  GError *err = NULL;
  ck_assert_msg(cs_ts_validate(s, &err), "%s", err ? err->message : "");
  expect_cmds(s, CS_TS_REDUCE, 12, "recv 13, recv 14, send 8"); /* Section 4's example */
  expect_cmds(s, CS_TS_REDUCE, 0, "recv 1, recv 2, recv 4, recv 8, recv 16");
  expect_cmds(s, CS_TS_REDUCE, 31, "send 30");
  expect_cmds(s, CS_TS_BCAST, 0, "send 16, send 8, send 4, send 2, send 1");
  expect_cmds(s, CS_TS_BCAST, 12, "recv 8, send 14, send 13");
  char *y = cs_ts_to_yaml(s);
  ck_assert(strstr(y, "\n  12: [recv 13, recv 14, send 8]\n"));
  g_free(y);
  ck_assert_int_eq(cs_ts_messages(s), 62);
  /* 8 nodes of 4: by blocks, only the 7 ranks 4, 8, ..., 28 (r mod 4 = 0)
   * have a parent on another node; round-robin, all but 8, 16 and 24 do */
  int block[32], cyclic[32];
  for (int r = 0; r < 32; r++) {
    block[r] = r / 4;
    cyclic[r] = r % 8;
  }
  ck_assert_int_eq(cs_ts_internode_messages(s, block), 14);
  ck_assert_int_eq(cs_ts_internode_messages(s, cyclic), 56);
  cs_ts_free(s);

  /* sizes that are not powers of two */
  for (int n = 1; n <= 70; n++) {
    s = binomial(n);
    ck_assert_msg(cs_ts_validate(s, &err), "n = %d: %s", n, err ? err->message : "");
    ck_assert_int_eq(cs_ts_messages(s), 2 * (n - 1));
    cs_ts_free(s);
  }
}
END_TEST

START_TEST(test_large_scripts)
{
  GError *err = NULL;
  cs_tree_script *s = binomial(1 << 16);
  ck_assert_msg(cs_ts_validate(s, &err), "%s", err ? err->message : "");
  cs_ts_free(s);
  s = linear(20000);
  ck_assert_msg(cs_ts_validate(s, &err), "%s", err ? err->message : "");
  cs_ts_free(s);
}
END_TEST

static Suite *tree_script_suite(void)
{
  Suite *s = suite_create("tree_script");
  TCase *tc = tcase_create("scripts");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_example_file);
  tcase_add_test(tc, test_parse_literals);
  tcase_add_test(tc, test_waiting_is_not_deadlock);
  tcase_add_test(tc, test_round_trip);
  tcase_add_test(tc, test_round_trip_quoted_names);
  tcase_add_test(tc, test_yaml_format);
  tcase_add_test(tc, test_save_and_load);
  tcase_add_test(tc, test_missing_rank);
  tcase_add_test(tc, test_send_without_receive);
  tcase_add_test(tc, test_receive_without_send);
  tcase_add_test(tc, test_cycle);
  tcase_add_test(tc, test_double_counted_contribution);
  tcase_add_test(tc, test_root_missing_contribution);
  tcase_add_test(tc, test_bcast_send_before_receive);
  tcase_add_test(tc, test_malformed_yaml);
  tcase_add_test(tc, test_bad_keys_and_numbers);
  tcase_add_test(tc, test_peer_out_of_range);
  tcase_add_test(tc, test_validate_built_scripts);
  tcase_add_test(tc, test_lam_tree);
  tcase_add_test(tc, test_large_scripts);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(tree_script_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
