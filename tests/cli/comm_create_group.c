/* Group-collective communicator creation (seed 004, Dinan et al.,
 * Algorithm 1 and Section 5.1) through the binary, each property checked
 * against values computed here:
 *  - Algorithm 1 (--impl intercomm) for every group size 1..64, members
 *    drawn at random from 128 ranks and put in a random order (a new seed
 *    per size): exit 0, "verified": true (the binary checks every member's
 *    rank, size, the map's members in the requested order and the shared,
 *    process-unique context id), one communicator, no message sent or
 *    received by a non-member, and exactly the message count of the
 *    decomposition derived below;
 *  - the direct creation (--impl direct) and MPICH's parent-collective
 *    MPI_Comm_create on the same groups: their counts, and for the parent
 *    collective the non-members' share of the messages;
 *  - two concurrent creations by disjoint groups (their own tags), and
 *    three in a row (ids unique per process over the run);
 *  - bad input: exit 2, one line naming the problem.
 * Message counts (AR(n) = 2 rem + pof2 lg pof2, the recursive-doubling
 * allreduce; n - 1 a binomial bcast):
 *   Intercomm_create(a, b) = 6 (three leader exchanges each way: sizes,
 *     process ids, context ids) + AR(a) + AR(b) (a receive context per
 *     side) + 2 (a - 1) + 2 (b - 1) (two bcasts per side);
 *   Intercomm_merge(a, b) = 2 (the high flags) + (a - 1) + (b - 1) (their
 *     bcast) + AR(a + b) (the new context id over the union);
 *   Algorithm 1 (g) = sum over merge_sz = 1, 2, 4, ... < g and blocks
 *     [left, left + merge_sz) with a right neighbour of the two above with
 *     a = merge_sz, b = min(merge_sz, g - left - merge_sz);
 *   direct (g) = AR(g); MPI_Comm_create = AR(n) over the whole parent. */
#include "tests/lib/harness.h"
#include "tests/lib/comm_formulas.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static char *tmpdir;
static void setup(void) { tmpdir = harness_tmpdir_new(); }
static void teardown(void)
{
  harness_tmpdir_remove(tmpdir);
  tmpdir = NULL;
}

#define PLATFORM "torus:4x4x4/2"
#define N 128

static int64_t intercomm_create_msgs(int64_t a, int64_t b)
{
  return 6 + allreduce_msgs(a) + allreduce_msgs(b) + 2 * (a - 1) + 2 * (b - 1);
}

static int64_t intercomm_merge_msgs(int64_t a, int64_t b) { return 2 + (a - 1) + (b - 1) + allreduce_msgs(a + b); }

static int64_t algorithm1_msgs(int64_t g)
{
  int64_t total = 0;
  for (int64_t sz = 1; sz < g; sz *= 2)
    for (int64_t left = 0; left + sz < g; left += 2 * sz) {
      int64_t b = g - left - sz < sz ? g - left - sz : sz;
      total += intercomm_create_msgs(sz, b) + intercomm_merge_msgs(sz, b);
    }
  return total;
}

typedef struct outcome {
  gint64 messages, nonmember, created, group_size;
  gboolean verified;
  char *out;
} outcome;

static gint64 json_int(const char *json, const char *key)
{
  gint64 v = -1;
  ck_assert_msg(harness_json_int(json, key, &v), "no integer \"%s\" in %s", key, json);
  return v;
}

/* `collsim comm <verb> --platform PLATFORM -n N <extra...> --format json -q`. */
static void run(outcome *o, const char *verb, const char *impl, const char *const *extra)
{
  GPtrArray *a = g_ptr_array_new();
  const char *base[] = {"comm", verb, "--platform", PLATFORM, "-n", G_STRINGIFY(N), "--format", "json", "-q"};
  for (size_t i = 0; i < G_N_ELEMENTS(base); i++)
    g_ptr_array_add(a, (gpointer)base[i]);
  if (impl) {
    g_ptr_array_add(a, (gpointer) "--impl");
    g_ptr_array_add(a, (gpointer)impl);
  }
  for (; extra && *extra; extra++)
    g_ptr_array_add(a, (gpointer)*extra);
  g_ptr_array_add(a, NULL);
  harness_result r;
  harness_run(&r, (const char *const *)a->pdata);
  ck_assert_msg(r.exit_status == 0, "comm %s %s: exit %d: %s", verb, impl ? impl : "", r.exit_status, r.err);
  ck_assert_msg(harness_json_bool(r.out, "verified", &o->verified), "%s", r.out);
  o->messages = json_int(r.out, "messages");
  o->nonmember = json_int(r.out, "nonmember_messages");
  o->created = json_int(r.out, "created");
  o->group_size = json_int(r.out, "group_size");
  o->out = g_strdup(r.out);
  harness_result_clear(&r);
  g_ptr_array_free(a, TRUE);
}

static void expect(outcome *o, int64_t messages, bool members_only, int64_t created)
{
  ck_assert_msg(o->verified, "not verified: %s", o->out);
  ck_assert_msg(o->created == created, "created %lld, want %lld: %s", (long long)o->created, (long long)created,
                o->out);
  ck_assert_msg(o->messages == messages, "%lld messages, want %lld: %s", (long long)o->messages,
                (long long)messages, o->out);
  if (members_only)
    ck_assert_msg(o->nonmember == 0, "non-members took part: %s", o->out);
  g_free(o->out);
}

/* Algorithm 1 for g = _i + 1: random members, random order. */
START_TEST(algorithm1_every_size)
{
  int g = _i + 1;
  char gs[16], seed[16];
  snprintf(gs, sizeof gs, "%d", g);
  snprintf(seed, sizeof seed, "%d", 100 + g);
  const char *extra[] = {"--group-size", gs, "--members", "random", "--order", "random", "--seed", seed, NULL};
  outcome o;
  run(&o, "create-group", "intercomm", extra);
  ck_assert_int_eq(o.group_size, g);
  expect(&o, algorithm1_msgs(g), true, 1);
}
END_TEST

static const int some_sizes[] = {1, 2, 3, 5, 8, 13, 31, 32, 33, 64, 100, 128};

START_TEST(direct_and_parent_collective)
{
  int g = some_sizes[_i];
  char gs[16];
  snprintf(gs, sizeof gs, "%d", g);
  const char *extra[] = {"--group-size", gs, "--members", "spread", "--order", "reverse", NULL};
  outcome o;
  run(&o, "create-group", "direct", extra);
  expect(&o, allreduce_msgs(g), true, 1);
  run(&o, "create", "mpich", extra);
  /* every process of the parent takes part: the non-members' sends and
   * receives are all but the members' */
  ck_assert_msg(g == N ? o.nonmember == 0 : o.nonmember > 0, "%s", o.out);
  expect(&o, allreduce_msgs(N), false, 1);
}
END_TEST

START_TEST(concurrent_and_repeated)
{
  const char *two[] = {"--group-size", "20", "--concurrent", "2", "--members", "random", "--order", "random", NULL};
  outcome o;
  run(&o, "create-group", "intercomm", two);
  expect(&o, 2 * algorithm1_msgs(20), true, 2);
  run(&o, "create-group", "direct", two);
  expect(&o, 2 * allreduce_msgs(20), true, 2);
  const char *again[] = {"--group-size", "37", "--repeat", "3", NULL};
  run(&o, "create-group", "intercomm", again);
  expect(&o, 3 * algorithm1_msgs(37), true, 3);
}
END_TEST

#define expect_bad(word, ...) harness_expect_bad(tmpdir, word, "comm", __VA_ARGS__)

/* Without a platform, create-group runs on the paper's two racks (the
 * BG/P torus 8x16x16, 4 cores a node), on 8,192 ranks unless -n says
 * otherwise, not on seed 003's cpm machine. */
START_TEST(default_platform_is_bgp)
{
  const char *args[] = {"comm", "create-group", "-n", "16", "--group-size", "4", "--format", "json", "-q", NULL};
  harness_result r;
  harness_run(&r, args);
  ck_assert_msg(r.exit_status == 0, "exit %d: %s", r.exit_status, r.err);
  ck_assert_msg(strstr(r.out, "\"platform\": \"torus:") != NULL, "%s", r.out);
  ck_assert_int_eq(json_int(r.out, "n"), 16);
  ck_assert_int_eq(json_int(r.out, "group_size"), 4);
  harness_result_clear(&r);
}
END_TEST

START_TEST(bad_inputs)
{
  expect_bad("exceeds n = 128", "create-group", "--platform", PLATFORM, "-n", "128", "--group-size", "129", NULL);
  expect_bad("--group-size", "create-group", "--platform", PLATFORM, "--group-size", "0", NULL);
  expect_bad("exceeds n = 128", "create-group", "--platform", PLATFORM, "-n", "128", "--group-size", "50",
             "--concurrent", "3", NULL);
  expect_bad("larger than the platform", "create-group", "--platform", PLATFORM, "-n", "129", "--group-size", "4", NULL);
  expect_bad("does not do create-group", "create-group", "--platform", PLATFORM, "--impl", "leader",
             "--group-size", "4", NULL);
  expect_bad("does not do create", "create", "--platform", PLATFORM, "--impl", "direct", "--group-size", "4", NULL);
  expect_bad("not both", "create-group", "--platform", PLATFORM, "--group-size", "4", "--group", "range:0,3", NULL);
  expect_bad("'sideways'", "create-group", "--platform", PLATFORM, "--group-size", "4", "--order", "sideways", NULL);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("group_create");
  TCase *tc = tcase_create("sizes");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, algorithm1_every_size, 0, 64);
  tcase_add_loop_test(tc, direct_and_parent_collective, 0, (int)G_N_ELEMENTS(some_sizes));
  tcase_add_test(tc, concurrent_and_repeated);
  tcase_add_test(tc, default_platform_is_bgp);
  tcase_add_test(tc, bad_inputs);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
