/* `collsim comm` through the binary (seed 003, Sections 2-4 and 8):
 * communicator creation on [C,P,M] systems, each property checked against
 * values computed here from the rules, not against recorded output.
 *
 *  - Many small shapes (C, P, M each 1 or 3, and 4,2,2 and 5,3,2), both
 *    implementations, colours 1, 2, 7 and N, every key rule and layout:
 *    exit 0, "verified": true, one communicator per colour, and the exact
 *    message count of the protocol; a colour count above N is bad input.
 *  - Exact counts ("messages" counts MPI messages only; scheduler wake-ups
 *    between collocated proclets are "wakeups"):
 *      leader split, share on:  2 (N - 1) + L
 *        (binomial gather and scatter of N - 1 messages each, then one
 *        membership message from the root to every local leader; L = sum
 *        over colours of the distinct OS processes, r / C, holding members
 *        of that colour);
 *      leader split, --no-share: 2 (N - 1) + N (the membership goes to
 *        every member);
 *      mpich split: N ceil(lg N) (Bruck allgather; 0 at N = 1) + 2 rem +
 *        pof2 lg pof2 (recursive-doubling allreduce of the id mask, pof2 the
 *        largest power of two <= N, rem = N - pof2);
 *      leader create: sum over groups of 2 (m - 1) (bitmaps to group rank
 *        0, ids back);
 *      mpich create: the allreduce count over the whole world;
 *      --repeat R: R times that (and, when ids run out, the messages that
 *        exhausted creations still send: see ids_exhaust_exactly).
 *  - Memory: the peak per OS process is at least the peak per proclet and
 *    at most C times it plus the OS process's maps.
 *  - Wake-ups and maps: share on, wakeups <= members - local leaders and
 *    maps_built = L (one map per OS process and communicator); share off
 *    (--no-share, and MPICH): wakeups = 0 and maps_built = members.
 *  - Context ids over long sequences: 40 leader splits, 30 MPICH splits;
 *    with --lbi-bits 1 or 2 the ids run out after exactly the number the
 *    <LID, LBI> rules allow; MPICH's mask after 2,045 creations.
 *  - `collsim comm ids`: the Section 8.2 counts, derived in a comment.
 *  - Bad input: exit 2, one line naming the problem, no output file.
 *  - Determinism: the same run twice gives identical output once the wall
 *    clock column is removed.
 *  - -q: a successful run writes nothing on stderr. */
#include "tests/lib/harness.h"
#include "tests/lib/comm_formulas.h"

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

#define expect_bad(word, ...) harness_expect_bad(tmpdir, word, "comm", __VA_ARGS__)

/* ------------------------------------------------------------ running ---- */

/* An argument vector that owns its strings. */
static GPtrArray *argv_new(void) { return g_ptr_array_new_with_free_func(g_free); }

static void argv_add(GPtrArray *a, const char *first, ...) G_GNUC_NULL_TERMINATED;
static void argv_add(GPtrArray *a, const char *first, ...)
{
  va_list ap;
  va_start(ap, first);
  for (const char *s = first; s; s = va_arg(ap, const char *))
    g_ptr_array_add(a, g_strdup(s));
  va_end(ap);
}

static void argv_addf(GPtrArray *a, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void argv_addf(GPtrArray *a, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_ptr_array_add(a, g_strdup_vprintf(fmt, ap));
  va_end(ap);
}

static char *argv_text(const GPtrArray *a)
{
  GString *s = g_string_new("collsim");
  for (guint i = 0; i < a->len; i++)
    g_string_append_printf(s, " %s", (const char *)g_ptr_array_index(a, i));
  return g_string_free(s, FALSE);
}

/* What one run reports. */
typedef struct outcome {
  gint64 n, messages, wakeups, maps_built, created, exhausted;
  gint64 proclet_peak, process_peak, map_per_process; /* bytes */
  gboolean verified;
  char *cmd; /* the command, for messages */
} outcome;

static gint64 json_int(const char *json, const char *key, const char *cmd)
{
  gint64 v = 0;
  ck_assert_msg(harness_json_int(json, key, &v), "%s: no integer \"%s\" in %s", cmd, key, json);
  return v;
}

/* Run `collsim <args> --format json -q`, expecting exit 0 and one line. */
static void run_json(outcome *o, GPtrArray *args)
{
  argv_add(args, "--format", "json", "-q", NULL);
  memset(o, 0, sizeof *o);
  o->cmd = argv_text(args);
  g_ptr_array_add(args, NULL);
  harness_result r;
  harness_run(&r, (const char *const *)args->pdata);
  g_ptr_array_remove_index(args, args->len - 1);
  ck_assert_msg(r.exit_status == 0, "%s: exit %d, stderr: %s", o->cmd, r.exit_status, r.err);
  ck_assert_msg(harness_count_lines(r.out) == 1, "%s: output %s", o->cmd, r.out);
  ck_assert_msg(harness_json_bool(r.out, "verified", &o->verified), "%s: no \"verified\" in %s", o->cmd, r.out);
  o->n = json_int(r.out, "n", o->cmd);
  o->messages = json_int(r.out, "messages", o->cmd);
  o->wakeups = json_int(r.out, "wakeups", o->cmd);
  o->maps_built = json_int(r.out, "maps_built", o->cmd);
  o->created = json_int(r.out, "created", o->cmd);
  o->exhausted = json_int(r.out, "exhausted", o->cmd);
  o->proclet_peak = json_int(r.out, "peak_mem_bytes_per_proclet_max", o->cmd);
  o->process_peak = json_int(r.out, "peak_mem_bytes_per_process_max", o->cmd);
  o->map_per_process = json_int(r.out, "map_bytes_per_process_max", o->cmd);
  /* an OS process holds at least its largest proclet's memory */
  ck_assert_msg(o->proclet_peak > 0 && o->process_peak >= o->proclet_peak,
                "%s: peak per OS process %lld below the peak per proclet %lld", o->cmd, (long long)o->process_peak,
                (long long)o->proclet_peak);
  harness_result_clear(&r);
}

static void outcome_clear(outcome *o)
{
  g_free(o->cmd);
  o->cmd = NULL;
}

#define EXPECT_EQ(o, what, got, want)                                                                          \
  ck_assert_msg((gint64)(got) == (gint64)(want), "%s: %s = %lld, expected %lld", (o)->cmd, what,              \
                (long long)(got), (long long)(want))

/* ------------------------------------------------------------ formulas ---- */

typedef struct shape {
  int c, p, m;
} shape;

static int shape_n(shape s) { return s.c * s.p * s.m; }

/* MPICH's split: Bruck allgather + the mask allreduce. */
static int64_t mpich_split_msgs(int64_t n) { return n * ceil_lg(n) + allreduce_msgs(n); }

/* Colour of rank r (comm_run.c): cyclic r mod K, block r K / N. */
static int colour_of(int64_t r, int k, int64_t n, gboolean block)
{
  return block ? (int)(r * k / n) : (int)(r % k);
}

/* Local leaders of colour `col`: distinct OS processes (r / C) of its members. */
static int64_t leaders_of(int64_t n, int c, int k, gboolean block, int col)
{
  int64_t l = 0, last = -1;
  for (int64_t r = 0; r < n; r++) /* members in rank order: processes ascend */
    if (colour_of(r, k, n, block) == col && r / c != last) {
      last = r / c;
      l++;
    }
  return l;
}

/* L: sum over colours of the local leaders. */
static int64_t leaders(int64_t n, int c, int k, gboolean block)
{
  int64_t l = 0;
  for (int col = 0; col < k; col++)
    l += leaders_of(n, c, k, block, col);
  return l;
}

static int64_t members_of(int64_t n, int k, gboolean block, int col)
{
  int64_t m = 0;
  for (int64_t r = 0; r < n; r++)
    m += colour_of(r, k, n, block) == col;
  return m;
}

/* ------------------------------------------------- (a)-(c) many shapes ---- */

static const shape shapes[] = {{1, 1, 1}, {1, 1, 3}, {1, 3, 1}, {1, 3, 3}, {3, 1, 1}, {3, 1, 3},
                               {3, 3, 1}, {3, 3, 3}, {4, 2, 2}, {5, 3, 2}};
static const char *const impls[] = {"leader", "mpich"};
static const char *const key_rules[] = {"rank", "reverse", "random"};

/* One split, checked: verified, a communicator per colour, exact messages,
 * wake-ups and maps. */
static void check_split(shape s, const char *impl, int k, const char *key, gboolean block, gboolean share)
{
  int64_t n = shape_n(s);
  GPtrArray *a = argv_new();
  argv_add(a, "comm", "split", "--impl", impl, "--key", key, "--layout", block ? "block" : "cyclic", NULL);
  argv_add(a, "--cpm", NULL);
  argv_addf(a, "%d,%d,%d", s.c, s.p, s.m);
  argv_add(a, "--colors", NULL);
  argv_addf(a, "%d", k);
  if (!share)
    argv_add(a, "--no-share", NULL);
  outcome o;
  run_json(&o, a);
  ck_assert_msg(o.verified, "%s: not verified", o.cmd);
  EXPECT_EQ(&o, "n", o.n, n);
  EXPECT_EQ(&o, "created", o.created, k); /* k <= N: every colour nonempty */
  EXPECT_EQ(&o, "exhausted", o.exhausted, 0);
  /* ... and at most all of its C proclets at their peaks plus its maps
   * (words: each map rounded up to 8 bytes, at most one per colour) */
  int64_t bound = s.c * o.proclet_peak + o.map_per_process + 8 * k;
  ck_assert_msg(o.process_peak <= bound, "%s: peak per OS process %lld above C x peak per proclet + maps = %lld",
                o.cmd, (long long)o.process_peak, (long long)bound);
  int64_t l = leaders(n, s.c, k, block);
  if (strcmp(impl, "mpich") == 0) {
    EXPECT_EQ(&o, "messages", o.messages, mpich_split_msgs(n));
    EXPECT_EQ(&o, "wakeups", o.wakeups, 0);
    EXPECT_EQ(&o, "maps_built", o.maps_built, n);
  } else if (share) {
    EXPECT_EQ(&o, "messages", o.messages, 2 * (n - 1) + l);
    ck_assert_msg(o.wakeups >= 0 && o.wakeups <= n - l, "%s: wakeups = %lld, more than members %lld - leaders %lld",
                  o.cmd, (long long)o.wakeups, (long long)n, (long long)l);
    if (s.c == 1)
      EXPECT_EQ(&o, "wakeups", o.wakeups, 0); /* every member leads its OS process */
    EXPECT_EQ(&o, "maps_built", o.maps_built, l);
  } else {
    EXPECT_EQ(&o, "messages", o.messages, 2 * (n - 1) + n);
    EXPECT_EQ(&o, "wakeups", o.wakeups, 0);
    EXPECT_EQ(&o, "maps_built", o.maps_built, n);
  }
  outcome_clear(&o);
  g_ptr_array_free(a, TRUE);
}

/* Per shape (loop test): both implementations, colours 1, 2, 7 and N; the
 * key rule and layout rotate with the shape so that over the shapes every
 * (implementation, colour count) meets all six key x layout pairs; colour
 * counts above N are refused; one --no-share run for the leader. */
START_TEST(split_small_shapes)
{
  shape s = shapes[_i];
  int n = shape_n(s);
  char cpm[32], too_many[16];
  snprintf(cpm, sizeof cpm, "%d,%d,%d", s.c, s.p, s.m);
  const int counts[] = {1, 2, 7, n};
  for (int im = 0; im < 2; im++)
    for (int ci = 0; ci < 4; ci++) {
      int k = counts[ci];
      if (ci == 3 && (n == 1 || n == 2 || n == 7))
        continue; /* N is one of the others */
      if (k > n) {
        snprintf(too_many, sizeof too_many, "%d", k);
        expect_bad("exceeds N", "split", "--impl", impls[im], "--cpm", cpm, "--colors", too_many, NULL);
        continue;
      }
      int combo = (_i + 4 * im + ci) % 6;
      check_split(s, impls[im], k, key_rules[combo % 3], combo >= 3, TRUE);
    }
  check_split(s, "leader", n >= 2 ? 2 : 1, key_rules[_i % 3], _i % 2 == 0, FALSE);
  /* the largest colour count is refused at N + 1 exactly */
  snprintf(too_many, sizeof too_many, "%d", n + 1);
  expect_bad("exceeds N", "split", "--cpm", cpm, "--colors", too_many, NULL);
}
END_TEST

/* --repeat R: R times the count of one split, for both implementations and
 * share off. */
START_TEST(split_repeat_counts)
{
  const int r = 3, k = 7;
  shape s = {5, 3, 2};
  int64_t n = shape_n(s);
  const struct {
    const char *impl;
    gboolean share;
    int64_t once;
  } cases[] = {
      {"leader", TRUE, 2 * (n - 1) + leaders(n, s.c, k, FALSE)},
      {"leader", FALSE, 2 * (n - 1) + n},
      {"mpich", TRUE, mpich_split_msgs(n)},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    GPtrArray *a = argv_new();
    argv_add(a, "comm", "split", "--cpm", "5,3,2", "--colors", "7", "--repeat", "3", "--impl", cases[i].impl, NULL);
    if (!cases[i].share)
      argv_add(a, "--no-share", NULL);
    outcome o;
    run_json(&o, a);
    ck_assert_msg(o.verified, "%s: not verified", o.cmd);
    EXPECT_EQ(&o, "created", o.created, r * k);
    EXPECT_EQ(&o, "messages", o.messages, r * cases[i].once);
    int64_t maps = strcmp(cases[i].impl, "leader") == 0 && cases[i].share ? leaders(n, s.c, k, FALSE) : n;
    EXPECT_EQ(&o, "maps_built", o.maps_built, r * maps);
    outcome_clear(&o);
    g_ptr_array_free(a, TRUE);
  }
}
END_TEST

/* The echo of the shape: "cpm" is [C, P, M], not the hosts. */
START_TEST(split_echoes_shape)
{
  harness_result r;
  harness_runl(&r, "comm", "split", "--cpm", "5,3,2", "--colors", "4", "--format", "json", "-q", NULL);
  ck_assert_msg(r.exit_status == 0, "%s", r.err);
  const char *want[] = {"\"op\": \"split\"", "\"impl\": \"leader\"", "\"cpm\": [5, 3, 2]", "\"n\": 30",
                        "\"colors\": 4", "\"shared\": true", "\"ids\": \"lidlbi\"", "\"platform\": \"cpm:5,3,2\""};
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
    ck_assert_msg(strstr(r.out, want[i]), "no %s in %s", want[i], r.out);
  harness_result_clear(&r);
  harness_runl(&r, "comm", "split", "--cpm", "3,1,4", "--impl", "mpich", "--format", "json", "-q", NULL);
  ck_assert_msg(r.exit_status == 0, "%s", r.err);
  const char *want2[] = {"\"cpm\": [3, 1, 4]", "\"n\": 12", "\"shared\": false", "\"ids\": \"mask\""};
  for (size_t i = 0; i < G_N_ELEMENTS(want2); i++)
    ck_assert_msg(strstr(r.out, want2[i]), "no %s in %s", want2[i], r.out);
  harness_result_clear(&r);
}
END_TEST

/* ------------------------------------------------------------- create ---- */

#define MAXG 4
#define MAXM 16

/* Group sets on cpm:4,2,2 (N = 16, OS process of r = r / 4), with the
 * members each spec stands for. */
static const struct {
  const char *spec[MAXG];
  int members[MAXG][MAXM + 1]; /* -1 terminated */
} group_sets[] = {
    {{"stride:0,2,8", "ranks:1,3,15"}, {{0, 2, 4, 6, 8, 10, 12, 14, -1}, {1, 3, 15, -1}}},
    {{"stride:15,-3,5"}, {{15, 12, 9, 6, 3, -1}}}, /* decreasing */
    {{"ranks:7"}, {{7, -1}}},                      /* a group of one */
    {{"range:0,3+stride:2,4,3"}, {{0, 1, 2, 3, 6, 10, -1}}}, /* a union: 2 only once */
    {{"stride:15,-3,5", "ranks:7", "range:0,2", "ranks:13,4"}, {{15, 12, 9, 6, 3, -1}, {7, -1}, {0, 1, 2, -1}, {13, 4, -1}}},
    {{"range:15,0"}, {{15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1}}}, /* the whole world, reversed */
};

static int set_groups(size_t set)
{
  int g = 0;
  while (g < MAXG && group_sets[set].spec[g])
    g++;
  return g;
}

static int64_t group_size(size_t set, int g)
{
  int64_t m = 0;
  while (group_sets[set].members[g][m] >= 0)
    m++;
  return m;
}

static int64_t group_procs(size_t set, int g, int c)
{
  gboolean seen[MAXM] = {0};
  int64_t procs = 0;
  for (int i = 0; group_sets[set].members[g][i] >= 0; i++) {
    int q = group_sets[set].members[g][i] / c;
    procs += !seen[q];
    seen[q] = TRUE;
  }
  return procs;
}

/* Loop test over (set, implementation, share): leader create sends 2 (m - 1)
 * per group and builds one map per OS process (share) or member; MPICH's
 * create is one allreduce over the world and a map per member. */
START_TEST(create_groups)
{
  size_t set = (size_t)_i / 3;
  int variant = _i % 3; /* 0 leader, 1 leader --no-share, 2 mpich */
  const int c = 4, n = 16;
  GPtrArray *a = argv_new();
  argv_add(a, "comm", "create", "--cpm", "4,2,2", "--impl", variant == 2 ? "mpich" : "leader", NULL);
  if (variant == 1)
    argv_add(a, "--no-share", NULL);
  int groups = set_groups(set);
  int64_t leader_msgs = 0, members = 0, procs = 0;
  for (int g = 0; g < groups; g++) {
    argv_add(a, "--group", group_sets[set].spec[g], NULL);
    leader_msgs += 2 * (group_size(set, g) - 1);
    members += group_size(set, g);
    procs += group_procs(set, g, c);
  }
  outcome o;
  run_json(&o, a);
  ck_assert_msg(o.verified, "%s: not verified", o.cmd);
  EXPECT_EQ(&o, "created", o.created, groups);
  EXPECT_EQ(&o, "exhausted", o.exhausted, 0);
  if (variant == 2) {
    EXPECT_EQ(&o, "messages", o.messages, allreduce_msgs(n));
    EXPECT_EQ(&o, "maps_built", o.maps_built, members);
    EXPECT_EQ(&o, "wakeups", o.wakeups, 0);
  } else {
    EXPECT_EQ(&o, "messages", o.messages, leader_msgs);
    EXPECT_EQ(&o, "maps_built", o.maps_built, variant == 0 ? procs : members);
    if (variant == 0)
      ck_assert_msg(o.wakeups <= members - procs, "%s: wakeups %lld > %lld", o.cmd, (long long)o.wakeups,
                    (long long)(members - procs));
    else
      EXPECT_EQ(&o, "wakeups", o.wakeups, 0);
  }
  outcome_clear(&o);
  g_ptr_array_free(a, TRUE);
}
END_TEST

/* ------------------------------------------------------- context ids ---- */

/* 40 leader splits of cpm:4,2,2 into 3 colours: 120 communicators, all
 * verified (ids unique over the run), 40 times the count of one split;
 * 30 MPICH splits likewise. */
START_TEST(ids_long_sequences)
{
  int64_t n = 16;
  outcome o;
  GPtrArray *a = argv_new();
  argv_add(a, "comm", "split", "--cpm", "4,2,2", "--colors", "3", "--repeat", "40", NULL);
  run_json(&o, a);
  ck_assert_msg(o.verified, "%s: not verified", o.cmd);
  EXPECT_EQ(&o, "created", o.created, 120);
  EXPECT_EQ(&o, "exhausted", o.exhausted, 0);
  EXPECT_EQ(&o, "messages", o.messages, 40 * (2 * (n - 1) + leaders(n, 4, 3, FALSE)));
  EXPECT_EQ(&o, "maps_built", o.maps_built, 40 * leaders(n, 4, 3, FALSE));
  outcome_clear(&o);
  g_ptr_array_free(a, TRUE);

  a = argv_new();
  argv_add(a, "comm", "split", "--cpm", "4,2,2", "--colors", "3", "--repeat", "30", "--impl", "mpich", "--key",
           "random", NULL);
  run_json(&o, a);
  ck_assert_msg(o.verified, "%s: not verified", o.cmd);
  EXPECT_EQ(&o, "created", o.created, 90);
  EXPECT_EQ(&o, "messages", o.messages, 30 * mpich_split_msgs(n));
  outcome_clear(&o);
  g_ptr_array_free(a, TRUE);
}
END_TEST

/* <LID, LBI> with k LBI bits: a colour of m members can make m 2^k ids (a
 * leader is always its member with the fewest bits used, so every free bit
 * of every member is used before it fails), less one if it holds proclet 0
 * (COMM_WORLD = <0, 0>).  Over R splits colour c makes min(R, cap_c)
 * communicators; a split is exhausted when some colour fails: R - min cap
 * of them.  Messages: every split gathers and scatters (2 (N - 1)); a
 * colour sends its memberships (its local leaders) only when it got an id.
 * Maps: one per local leader of each colour that got an id. */
START_TEST(ids_exhaust_exactly)
{
  const struct {
    shape s;
    int colors, lbi_bits, repeat;
    gboolean block;
  } cases[] = {
      {{2, 2, 1}, 2, 1, 6, FALSE},  /* caps 3 ({0,2}) and 4 ({1,3}) */
      {{2, 2, 1}, 1, 1, 10, FALSE}, /* cap 7 */
      {{1, 3, 1}, 3, 2, 5, FALSE},  /* groups of one: caps 3, 4, 4 */
      {{3, 1, 2}, 2, 1, 8, TRUE},   /* block: {0,1,2} cap 5, {3,4,5} cap 6 */
      {{2, 1, 2}, 3, 1, 4, TRUE},   /* block: {0,1} cap 3, {2} cap 2, {3} cap 2 */
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    shape s = cases[i].s;
    int64_t n = shape_n(s), k = cases[i].colors, rep = cases[i].repeat;
    gboolean block = cases[i].block;
    int64_t created = 0, min_cap = INT64_MAX, messages = 2 * (n - 1) * rep, maps = 0;
    for (int col = 0; col < k; col++) {
      int64_t cap = members_of(n, (int)k, block, col) * (INT64_C(1) << cases[i].lbi_bits) -
                    (colour_of(0, (int)k, n, block) == col);
      int64_t made = cap < rep ? cap : rep;
      created += made;
      min_cap = cap < min_cap ? cap : min_cap;
      messages += made * leaders_of(n, s.c, (int)k, block, col);
      maps += made * leaders_of(n, s.c, (int)k, block, col);
    }
    ck_assert_msg(min_cap < rep, "case %zu does not exhaust", i); /* the test's own premise */
    GPtrArray *a = argv_new();
    argv_add(a, "comm", "split", "--layout", block ? "block" : "cyclic", "--cpm", NULL);
    argv_addf(a, "%d,%d,%d", s.c, s.p, s.m);
    argv_add(a, "--colors", NULL);
    argv_addf(a, "%lld", (long long)k);
    argv_add(a, "--lbi-bits", NULL);
    argv_addf(a, "%d", cases[i].lbi_bits);
    argv_add(a, "--repeat", NULL);
    argv_addf(a, "%lld", (long long)rep);
    outcome o;
    run_json(&o, a);
    ck_assert_msg(o.verified, "%s: not verified", o.cmd);
    EXPECT_EQ(&o, "created", o.created, created);
    EXPECT_EQ(&o, "exhausted", o.exhausted, rep - min_cap);
    EXPECT_EQ(&o, "messages", o.messages, messages);
    EXPECT_EQ(&o, "maps_built", o.maps_built, maps);
    outcome_clear(&o);
    g_ptr_array_free(a, TRUE);
  }
}
END_TEST

/* Leader create with k = 1: a group of m makes 2 m ids (less proclet 0's
 * bit); the request and the replies are sent even when no id is left. */
START_TEST(ids_exhaust_create)
{
  outcome o;
  GPtrArray *a = argv_new();
  /* {0, 9}: cap 3; {5, 6}: cap 4; over 6 creations: 3 + 4 made, creations
   * 4-6 exhausted; messages 6 x (2 + 2); maps: {0, 9} spans OS processes 0
   * and 2 (3 x 2), {5, 6} lies in process 1 (4 x 1). */
  argv_add(a, "comm", "create", "--cpm", "4,2,2", "--group", "ranks:0,9", "--group", "ranks:5,6", "--lbi-bits", "1",
           "--repeat", "6", NULL);
  run_json(&o, a);
  ck_assert_msg(o.verified, "%s: not verified", o.cmd);
  EXPECT_EQ(&o, "created", o.created, 7);
  EXPECT_EQ(&o, "exhausted", o.exhausted, 3);
  EXPECT_EQ(&o, "messages", o.messages, 24);
  EXPECT_EQ(&o, "maps_built", o.maps_built, 10);
  outcome_clear(&o);
  g_ptr_array_free(a, TRUE);
}
END_TEST

/* MPICH2's mask: 2^11 ids less 3 reserved = 2,045 creations per proclet;
 * on a world of one (no messages) the 2,050 splits make 2,045. */
START_TEST(ids_mask_runs_out)
{
  outcome o;
  GPtrArray *a = argv_new();
  argv_add(a, "comm", "split", "--cpm", "1,1,1", "--impl", "mpich", "--repeat", "2050", NULL);
  run_json(&o, a);
  ck_assert_msg(o.verified, "%s: not verified", o.cmd);
  EXPECT_EQ(&o, "created", o.created, 2045);
  EXPECT_EQ(&o, "exhausted", o.exhausted, 5);
  EXPECT_EQ(&o, "messages", o.messages, 0);
  EXPECT_EQ(&o, "maps_built", o.maps_built, 2045);
  outcome_clear(&o);
  g_ptr_array_free(a, TRUE);
}
END_TEST

/* ---------------------------------------------------------- comm ids ---- */

static void run_ids(harness_result *r, const char *first, ...) G_GNUC_NULL_TERMINATED;
static void run_ids(harness_result *r, const char *first, ...)
{
  va_list ap;
  va_start(ap, first);
  GPtrArray *args = harness_args_va(first, ap);
  va_end(ap);
  g_ptr_array_remove_index(args, args->len - 1);
  g_ptr_array_add(args, "--format");
  g_ptr_array_add(args, "json");
  g_ptr_array_add(args, "-q");
  g_ptr_array_add(args, NULL);
  harness_run(r, (const char *const *)args->pdata);
  g_ptr_array_free(args, TRUE);
  ck_assert_msg(r->exit_status == 0, "exit %d: %s", r->exit_status, r->err);
}

static void expect_ids(const char *json, const char *limit, gint64 splits, gint64 created)
{
  char *want = g_strdup_printf("\"limit\": \"%s\"", limit);
  ck_assert_msg(strstr(json, want), "no %s in %s", want, json);
  g_free(want);
  ck_assert_int_eq(json_int(json, "splits", "ids"), splits);
  ck_assert_int_eq(json_int(json, "created", "ids"), created);
}

/* cpm:6250,8,2: N = 100,000 proclets, 6,250 per OS process; 100 colours
 * (cyclic: colour c = {c, c + 100, ...}, 1,000 members, every OS process
 * holding 62 or 63 members of every colour).
 *  - pool (MPICH2's 261,896 communicator objects per OS process): every
 *    proclet joins one new communicator per split, so an OS process spends
 *    6,250 objects a split: floor(261,896 / 6,250) = 41 splits, 4,100
 *    communicators.  With COMM_WORLD and COMM_SELF in the pool too (2 x
 *    6,250 objects first): floor(249,396 / 6,250) = 39 splits, 3,900.
 *  - mask: 2^11 - 3 = 2,045 splits (every split takes one id from every
 *    proclet's mask), whatever the pool.
 *  - lbi, --pool 0: a colour of 1,000 members with 64 bits each makes
 *    64,000 ids; colour 0 holds proclet 0, whose bit 0 is COMM_WORLD's:
 *    63,999.  Colour 0 comes first in a split, so split 64,000 fails before
 *    making any: 63,999 complete splits, 6,399,900 communicators. */
START_TEST(ids_section_8_2)
{
  harness_result r;
  run_ids(&r, "comm", "ids", "--cpm", "6250,8,2", "--split", "100", "--until-exhausted", NULL);
  expect_ids(r.out, "pool", 41, 4100);
  ck_assert_int_eq(json_int(r.out, "splits_pool", "ids"), 41);
  ck_assert_int_eq(json_int(r.out, "splits_mask", "ids"), 2045);
  ck_assert_int_eq(json_int(r.out, "n", "ids"), 100000);
  harness_result_clear(&r);
  run_ids(&r, "comm", "ids", "--cpm", "6250,8,2", "--split", "100", "--until-exhausted", "--pool", "0", NULL);
  expect_ids(r.out, "lbi", 63999, 6399900);
  ck_assert_int_eq(json_int(r.out, "splits_lbi", "ids"), 63999);
  ck_assert_int_eq(json_int(r.out, "splits_pool", "ids"), -1);
  harness_result_clear(&r);
  run_ids(&r, "comm", "ids", "--cpm", "6250,8,2", "--split", "100", "--until-exhausted", "--pool", "0", "--impl",
          "mpich", NULL);
  expect_ids(r.out, "mask", 2045, 204500);
  harness_result_clear(&r);
  run_ids(&r, "comm", "ids", "--cpm", "6250,8,2", "--split", "100", "--until-exhausted", "--world-in-pool", NULL);
  expect_ids(r.out, "pool", 39, 3900);
  ck_assert_int_eq(json_int(r.out, "splits_pool", "ids"), 39);
  harness_result_clear(&r);
}
END_TEST

/* The untimed count agrees with the timed protocol on a small world:
 * cpm:2,2,1, 2 colours, k = 1: caps 3 and 4, so 3 complete splits (6
 * communicators, colour 0 failing first in split 4); the timed split makes
 * 6 in 3 creations without exhaustion and reports the 4th exhausted. */
START_TEST(ids_agree_with_timed)
{
  harness_result r;
  run_ids(&r, "comm", "ids", "--cpm", "2,2,1", "--split", "2", "--lbi-bits", "1", "--pool", "0", "--until-exhausted",
          NULL);
  expect_ids(r.out, "lbi", 3, 6);
  harness_result_clear(&r);
  for (int rep = 3; rep <= 4; rep++) {
    GPtrArray *a = argv_new();
    argv_add(a, "comm", "split", "--cpm", "2,2,1", "--colors", "2", "--lbi-bits", "1", "--repeat", NULL);
    argv_addf(a, "%d", rep);
    outcome o;
    run_json(&o, a);
    ck_assert_msg(o.verified, "%s: not verified", o.cmd);
    EXPECT_EQ(&o, "created", o.created, rep == 3 ? 6 : 7);
    EXPECT_EQ(&o, "exhausted", o.exhausted, rep == 3 ? 0 : 1);
    outcome_clear(&o);
    g_ptr_array_free(a, TRUE);
  }
  /* block layout, cpm:3,1,1, 2 colours: {0, 1} cap 3, {2} cap 2: 2 complete
   * splits, then colour 0 is made and colour 1 fails: 2 x 2 + 1 = 5. */
  run_ids(&r, "comm", "ids", "--cpm", "3,1,1", "--split", "2", "--layout", "block", "--lbi-bits", "1", "--pool", "0",
          "--until-exhausted", NULL);
  expect_ids(r.out, "lbi", 2, 5);
  harness_result_clear(&r);
  /* --repeat without --until-exhausted stops there: limit none */
  run_ids(&r, "comm", "ids", "--cpm", "2,2,1", "--split", "2", "--lbi-bits", "1", "--pool", "0", "--repeat", "2",
          NULL);
  expect_ids(r.out, "none", 2, 4);
  harness_result_clear(&r);
}
END_TEST

/* ---------------------------------------------------------- bad input ---- */

START_TEST(bad_inputs)
{
  expect_bad("C must be at least 1", "split", "--cpm", "0,2,2", NULL);
  expect_bad("missing fields", "split", "--cpm", "2,2", NULL);
  expect_bad("more than 2^21", "split", "--cpm", "2048,1024,2", NULL);
  expect_bad("--colors", "split", "--cpm", "4,2,2", "--colors", "0", NULL);
  expect_bad("--colors 17 exceeds N = 16", "split", "--cpm", "4,2,2", "--colors", "17", NULL);
  expect_bad("outside the world", "create", "--cpm", "4,2,2", "--group", "stride:0,2,50", NULL);
  expect_bad("outside the world", "create", "--cpm", "4,2,2", "--group", "stride:3,-2,3", NULL);
  expect_bad("disjoint", "create", "--cpm", "4,2,2", "--group", "range:0,5", "--group", "ranks:9,5", NULL);
  expect_bad("appears twice", "create", "--cpm", "4,2,2", "--group", "ranks:1,1", NULL);
  expect_bad("unknown map 'bogus'", "split", "--cpm", "4,2,2", "--map", "bogus", NULL);
  expect_bad("'foo'", "split", "--cpm", "4,2,2", "--impl", "foo", NULL);
  expect_bad("unknown operation 'frobnicate'", "frobnicate", "--cpm", "4,2,2", NULL);
  /* a setting SimGrid refuses only once the platform's models start: tried
   * in a child with the platform, one line (it used to abort with a dump) */
  expect_bad("refuses the settings on this platform", "split", "--cpm", "4,2,2", "--cfg",
             "network/maxmin-selective-update:no", NULL);
  expect_bad("no operation", "--cpm", "4,2,2", NULL);
  expect_bad("3-bit LID", "split", "--cpm", "4,2,2", "--lid-bits", "3", NULL);
  expect_bad("exceeds the 32-bit", "split", "--cpm", "4,2,2", "--lid-bits", "28", "--lbi-bits", "6", NULL);
  expect_bad("needs --group", "create", "--cpm", "4,2,2", NULL);
  expect_bad("--platform has no effect here: it applies only without --cpm", "split", "--cpm", "2,2,2", "--platform",
             "cpm:2,2,2", NULL);
  expect_bad("--split 17 exceeds N = 16", "ids", "--cpm", "4,2,2", "--split", "17", NULL);
  expect_bad("--repeat", "split", "--cpm", "4,2,2", "--repeat", "0", NULL);
}
END_TEST

/* -q: a successful run writes its result and nothing on stderr.  Groups of
 * one charge computations below SimGrid's time accuracy (1e-9 s), which
 * SimGrid reports with an INFO line unless the engine skips them. */
START_TEST(quiet_runs_write_no_stderr)
{
  const char *const runs[][12] = {
      {"comm", "create", "--cpm", "4,1,1", "--group", "ranks:1", "--format", "json", "-q", NULL},
      {"comm", "split", "--cpm", "1,2,1", "--colors", "2", "--format", "json", "-q", NULL},
      {"comm", "split", "--cpm", "3,3,1", "--colors", "9", "--impl", "mpich", "--format", "json", "-q", NULL},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(runs); i++) {
    harness_result r;
    harness_run(&r, runs[i]);
    ck_assert_msg(r.exit_status == 0, "%s %s: %s", runs[i][1], runs[i][3], r.err);
    ck_assert_msg(r.err[0] == 0, "comm %s --cpm %s ... -q wrote on stderr: %s", runs[i][1], runs[i][3], r.err);
    harness_result_clear(&r);
  }
}
END_TEST

/* -------------------------------------------------------- determinism ---- */

/* The CSV without its wall_s column. */
static char *csv_without_wall(const char *csv)
{
  char **lines = g_strsplit(csv, "\n", -1);
  int col = -1;
  char **head = g_strsplit(lines[0], ",", -1);
  for (int i = 0; head[i]; i++)
    if (strcmp(head[i], "wall_s") == 0)
      col = i;
  g_strfreev(head);
  ck_assert_msg(col >= 0, "no wall_s column in %s", csv);
  GString *out = g_string_new(NULL);
  for (int l = 0; lines[l]; l++) {
    /* wall_s is the last column and never quoted: cut at the last comma */
    char *cut = strrchr(lines[l], ',');
    if (cut)
      *cut = 0;
    g_string_append_printf(out, "%s\n", lines[l]);
  }
  g_strfreev(lines);
  return g_string_free(out, FALSE);
}

START_TEST(deterministic)
{
  const char *impl[] = {"leader", "mpich", "leader"};
  const char *op[] = {"split", "split", "create"};
  for (int i = 0; i < 3; i++) {
    harness_result a, b;
    /* --key acts on split only (create refuses it) */
    const char *const args[] = {"comm", op[i], "--impl", impl[i], "--cpm", "5,3,2", i == 2 ? "--group" : "--colors",
                                i == 2 ? "stride:29,-4,7" : "7", "--seed", "5", "--format", "csv", "-q",
                                i == 2 ? NULL : "--key", "random", NULL};
    harness_run(&a, args);
    harness_run(&b, args);
    ck_assert_msg(a.exit_status == 0 && b.exit_status == 0, "%s %s", a.err, b.err);
    ck_assert_int_eq(harness_count_lines(a.out), 2);
    char *x = csv_without_wall(a.out), *y = csv_without_wall(b.out);
    ck_assert_str_eq(x, y);
    ck_assert_msg(strstr(x, "wall_s") == NULL, "%s", x);
    g_free(x);
    g_free(y);
    harness_result_clear(&a);
    harness_result_clear(&b);
  }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("comm");
  TCase *tc = tcase_create("split");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, split_small_shapes, 0, (int)G_N_ELEMENTS(shapes));
  tcase_add_test(tc, split_repeat_counts);
  tcase_add_test(tc, split_echoes_shape);
  suite_add_tcase(s, tc);
  tc = tcase_create("create");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, create_groups, 0, 3 * (int)G_N_ELEMENTS(group_sets));
  suite_add_tcase(s, tc);
  tc = tcase_create("ids");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, ids_long_sequences);
  tcase_add_test(tc, ids_exhaust_exactly);
  tcase_add_test(tc, ids_exhaust_create);
  tcase_add_test(tc, ids_mask_runs_out);
  tcase_add_test(tc, ids_section_8_2);
  tcase_add_test(tc, ids_agree_with_timed);
  suite_add_tcase(s, tc);
  tc = tcase_create("input");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, bad_inputs);
  tcase_add_test(tc, deterministic);
  tcase_add_test(tc, quiet_runs_write_no_stderr);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
