/* --trace FILE and --timeline FILE.png through the binary ($COLLSIM, see
 * harness.h), on small runs of every timed subcommand (tree, collective
 * --timed, allreduce, comm split and create-group, mcmc):
 *  - the trace has one row per message the run counts (comm: its messages
 *    plus the proclets' wake-ups; allreduce: the script's messages per
 *    operation times iterations + 1, the warm-up included), their bytes add
 *    up to the run's bytes (allreduce reports none: every message carries
 *    the same value plus header), every 0 <= t_send <= t_recv, and the last
 *    t_recv is the run's sim_time_s at the latest;
 *  - the file is canonical (read back and written again, byte for byte the
 *    same: sorted rows, one format) and the same command twice writes the
 *    same bytes;
 *  - collective: the rows summed per (src_host, dst_host) are the pattern's
 *    node pairs of --pairs, messages and bytes;
 *  - --timeline writes a PNG; the per-tier load the trace module hands
 *    gnuplot (cs_trace_tier_load), integrated over time, is the bytes x
 *    links per tier of --links (the platform's netmap opened here);
 *  - bad input (untimed run, comm ids, a run too large to draw, not .png, a
 *    folder that is a file) exits 2 with one line and leaves no file;
 *  - each comparison fails on a trace with one row dropped or changed. */
#include "tests/lib/harness.h"
#include "platforms/platform.h"
#include "sim/drivers/trace.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *tmpdir;

static void setup(void) { tmpdir = harness_tmpdir_new(); }

static void teardown(void)
{
  harness_tmpdir_remove(tmpdir);
  tmpdir = NULL;
}

/* What a run says about itself (bytes < 0, sim_time < 0: not reported). */
typedef struct run_facts {
  gint64 messages, bytes;
  double sim_time;
} run_facts;

/* The trace's properties against the run's facts: NULL, or why not. */
static char *violation(const cs_trace *t, const run_facts *f)
{
  size_t n;
  const cs_trace_row *r = cs_trace_rows(t, &n);
  if ((gint64)n != f->messages)
    return g_strdup_printf("%zu rows for %" G_GINT64_FORMAT " messages", n, f->messages);
  guint64 bytes = 0;
  for (size_t i = 0; i < n; i++) {
    bytes += r[i].bytes;
    if (!(r[i].t_send >= 0 && r[i].t_recv >= r[i].t_send))
      return g_strdup_printf("row %zu: t_send %g, t_recv %g", i, r[i].t_send, r[i].t_recv);
    if (f->sim_time >= 0 && r[i].t_recv > f->sim_time * (1 + 1e-8))
      return g_strdup_printf("row %zu: t_recv %.12g after the run's end %.12g", i, r[i].t_recv, f->sim_time);
  }
  if (f->bytes >= 0 && (gint64)bytes != f->bytes)
    return g_strdup_printf("%" G_GUINT64_FORMAT " bytes for the run's %" G_GINT64_FORMAT, bytes, f->bytes);
  return NULL;
}

static void assert_holds(const cs_trace *t, const run_facts *f)
{
  char *why = violation(t, f);
  ck_assert_msg(why == NULL, "%s", why);
}

/* Run collsim with args, --trace path and -q; exit 0 expected.  The
 * result is in r. */
static void run_ok(harness_result *r, const char *trace, const char *first, ...) G_GNUC_NULL_TERMINATED;
static void run_ok(harness_result *r, const char *trace, const char *first, ...)
{
  va_list ap;
  va_start(ap, first);
  GPtrArray *args = harness_args_va(first, ap);
  va_end(ap);
  g_ptr_array_remove_index(args, args->len - 1); /* the NULL */
  g_ptr_array_add(args, "--trace");
  g_ptr_array_add(args, (char *)trace);
  g_ptr_array_add(args, "-q");
  g_ptr_array_add(args, NULL);
  harness_run(r, (const char *const *)args->pdata);
  ck_assert_msg(r->exit_status == 0, "collsim %s exited %d: %s", first, r->exit_status, r->err);
  g_ptr_array_free(args, TRUE);
}

static cs_trace *read_trace(const char *path)
{
  GError *e = NULL;
  cs_trace *t = cs_trace_read_csv(path, &e);
  ck_assert_msg(t != NULL, "%s", e ? e->message : "?");
  return t;
}

static void assert_same_file(const char *a, const char *b)
{
  char *x = harness_read_file(a), *y = harness_read_file(b);
  ck_assert_msg(x && y && strcmp(x, y) == 0, "%s and %s differ", a, b);
  g_free(x);
  g_free(y);
}

/* Read back and written again: the same bytes (sorted, one format). */
static void assert_canonical(const char *path)
{
  cs_trace *t = read_trace(path);
  char *again = harness_path(tmpdir, "again.csv");
  GError *e = NULL;
  ck_assert(cs_trace_write_csv(t, again, &e));
  assert_same_file(path, again);
  g_free(again);
  cs_trace_free(t);
}

static double json_num(const char *json, const char *key)
{
  double v;
  ck_assert_msg(harness_json_double(json, key, &v), "no %s in %s", key, json);
  return v;
}

static gint64 json_int(const char *json, const char *key)
{
  gint64 v;
  ck_assert_msg(harness_json_int(json, key, &v), "no %s in %s", key, json);
  return v;
}

/* ---- one subcommand: facts from its JSON, trace twice ---- */

typedef struct json_case {
  const char *name;
  const char *args[16];
  const char *messages, *extra_messages, *bytes, *sim_time; /* JSON keys (NULL: none) */
} json_case;

static const json_case JSON_CASES[] = {
    {"tree", {"tree", "-a", "rank-hash", "-n", "16", "--seed", "3", NULL}, "messages_bracketed", NULL,
     "bytes_bracketed", "sim_time_s"},
    {"tree-split", {"tree", "-a", "comm-split", "-n", "24", "--colors", "3", NULL}, "messages_bracketed", NULL,
     "bytes_bracketed", "sim_time_s"},
    {"comm-split", {"comm", "split", "--cpm", "2,2,2", "--colors", "2", NULL}, "messages", "wakeups", "bytes",
     "sim_time_s"},
    {"comm-create-group", {"comm", "create-group", "--cpm", "2,2,2", "--group-size", "4", NULL}, "messages",
     "wakeups", "bytes", "sim_time_s"},
    {"mcmc", {"mcmc", "--platform", "torus:2x2x2/2", "-n", "16", NULL}, "messages", NULL, "bytes", "sim_time_s"},
};

static void run_case(harness_result *r, const json_case *c, const char *trace)
{
  GPtrArray *args = g_ptr_array_new();
  for (int i = 0; c->args[i]; i++)
    g_ptr_array_add(args, (char *)c->args[i]);
  const char *tail[] = {"--format", "json", "--trace", trace, "-q", NULL};
  for (int i = 0; i < 6; i++)
    g_ptr_array_add(args, (char *)tail[i]);
  harness_run(r, (const char *const *)args->pdata);
  ck_assert_msg(r->exit_status == 0, "%s exited %d: %s", c->name, r->exit_status, r->err);
  g_ptr_array_free(args, TRUE);
}

START_TEST(trace_of_each_run)
{
  const json_case *c = &JSON_CASES[_i];
  char *one = harness_path(tmpdir, "one.csv"), *two = harness_path(tmpdir, "two.csv");
  harness_result r;
  run_case(&r, c, one);
  run_facts f = {json_int(r.out, c->messages) + (c->extra_messages ? json_int(r.out, c->extra_messages) : 0),
                 json_int(r.out, c->bytes), json_num(r.out, c->sim_time)};
  harness_result_clear(&r);
  cs_trace *t = read_trace(one);
  assert_holds(t, &f);
  cs_trace_free(t);
  assert_canonical(one);
  run_case(&r, c, two);
  harness_result_clear(&r);
  assert_same_file(one, two);
  g_free(one);
  g_free(two);
}
END_TEST

/* The Allreduce benchmark reports messages per operation and no bytes. */
START_TEST(allreduce_trace)
{
  char *one = harness_path(tmpdir, "one.csv"), *two = harness_path(tmpdir, "two.csv");
  harness_result r;
  run_ok(&r, one, "allreduce", "--cluster", "4w", "-n", "8", "--iterations", "3", "--format", "json", NULL);
  gint64 per = json_int(r.out, "messages_per_allreduce");
  double us = json_num(r.out, "us_per_allreduce");
  harness_result_clear(&r);
  cs_trace *t = read_trace(one);
  size_t n;
  const cs_trace_row *rows = cs_trace_rows(t, &n);
  ck_assert_uint_gt(n, 0);
  run_facts f = {per * 4, (gint64)(rows[0].bytes * n), -1};
  assert_holds(t, &f);
  double last = 0;
  for (size_t i = 0; i < n; i++)
    last = MAX(last, rows[i].t_recv);
  ck_assert_msg(last >= 3 * us * 1e-6, "last receive %g before the 3 timed operations' %g us", last, 3 * us);
  cs_trace_free(t);
  assert_canonical(one);
  run_ok(&r, two, "allreduce", "--cluster", "4w", "-n", "8", "--iterations", "3", NULL);
  harness_result_clear(&r);
  assert_same_file(one, two);
  g_free(one);
  g_free(two);
}
END_TEST

/* ---- collective: CSV output, pairs, tiers ---- */

/* Fields of a CSV line, quotes honoured. */
static char **csv_fields(const char *line)
{
  GPtrArray *f = g_ptr_array_new();
  GString *cur = g_string_new(NULL);
  bool quoted = false;
  for (const char *c = line;; c++) {
    if (*c == '"')
      quoted = !quoted;
    else if ((*c == ',' && !quoted) || !*c) {
      g_ptr_array_add(f, g_strdup(cur->str));
      g_string_truncate(cur, 0);
      if (!*c)
        break;
    } else
      g_string_append_c(cur, *c);
  }
  g_string_free(cur, TRUE);
  g_ptr_array_add(f, NULL);
  return (char **)g_ptr_array_free(f, FALSE);
}

static int column(char **header, const char *name)
{
  for (int i = 0; header[i]; i++)
    if (strcmp(header[i], name) == 0)
      return i;
  ck_abort_msg("no column %s", name);
  return -1;
}

/* A collective's result: its facts, and total bytes per tier (name -> gint64 *). */
static void coll_result(const char *csv, run_facts *f, GHashTable *tiers)
{
  char **lines = g_strsplit(csv, "\n", -1);
  char **h = csv_fields(lines[0]);
  for (int i = 1; lines[i] && *lines[i]; i++) {
    char **v = csv_fields(lines[i]);
    f->messages = g_ascii_strtoll(v[column(h, "messages")], NULL, 10);
    f->bytes = g_ascii_strtoll(v[column(h, "bytes")], NULL, 10);
    f->sim_time = g_ascii_strtod(v[column(h, "sim_time_s")], NULL);
    gint64 total = g_ascii_strtoll(v[column(h, "total_bytes")], NULL, 10);
    g_hash_table_insert(tiers, g_strdup(v[column(h, "tier")]), g_memdup2(&total, sizeof total));
    g_strfreev(v);
  }
  g_strfreev(h);
  g_strfreev(lines);
}

/* The rows summed per host pair, as the --pairs CSV writes the pattern. */
typedef struct pair_sum {
  gint64 src, dst;
  guint64 messages, bytes;
} pair_sum;

static int pair_cmp(const void *x, const void *y)
{
  const pair_sum *a = x, *b = y;
  return a->src != b->src ? (a->src > b->src) - (a->src < b->src) : (a->dst > b->dst) - (a->dst < b->dst);
}

static char *pairs_of(const cs_trace *t)
{
  size_t n;
  const cs_trace_row *r = cs_trace_rows(t, &n);
  GArray *sums = g_array_new(FALSE, FALSE, sizeof(pair_sum));
  for (size_t i = 0; i < n; i++) {
    guint k = 0;
    while (k < sums->len && (g_array_index(sums, pair_sum, k).src != r[i].src_host ||
                             g_array_index(sums, pair_sum, k).dst != r[i].dst_host))
      k++;
    if (k == sums->len) {
      pair_sum fresh = {r[i].src_host, r[i].dst_host, 0, 0};
      g_array_append_val(sums, fresh);
    }
    g_array_index(sums, pair_sum, k).messages++;
    g_array_index(sums, pair_sum, k).bytes += r[i].bytes;
  }
  g_array_sort(sums, pair_cmp);
  GString *s = g_string_new("src_node,dst_node,messages,bytes\n");
  for (guint k = 0; k < sums->len; k++) {
    const pair_sum *p = &g_array_index(sums, pair_sum, k);
    g_string_append_printf(s, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n",
                           p->src, p->dst, p->messages, p->bytes);
  }
  g_array_free(sums, TRUE);
  return g_string_free(s, FALSE);
}

/* The load the timeline draws, integrated per tier, against --links' bytes
 * x links per tier (a tier --links lists and the trace does not cross
 * must have carried nothing): NULL, or why not. */
static cs_netmap *routes_of(const char *spec)
{
  static char *opened;
  static cs_netmap *map;
  static cs_platform *p; /* kept (static): the map may point into it */
  if (opened) {
    ck_assert_str_eq(opened, spec);
    return map;
  }
  GError *e = NULL;
  p = cs_platform_parse(spec, &e);
  ck_assert_msg(p && cs_platform_resolve(p, 0, &e), "%s", e ? e->message : "?");
  map = cs_platform_netmap(p, &e);
  ck_assert_msg(map != NULL, "%s", e ? e->message : "?");
  opened = g_strdup(spec);
  return map;
}

static char *load_violation(cs_trace *t, const char *spec, GHashTable *tiers)
{
  cs_netmap *routes = routes_of(spec);
  ck_assert(cs_trace_resolve_tiers(t, routes));
  cs_trace_load l;
  cs_trace_tier_load(t, &l);
  char *why = NULL;
  for (int k = 0; k < l.ntiers && !why; k++) {
    const gint64 *want = g_hash_table_lookup(tiers, l.tier[k]);
    double got = cs_trace_load_integral(&l, k);
    if (!want || fabs(got - (double)*want) > 1e-9 * (double)*want)
      why = g_strdup_printf("tier %s: load integrates to %.12g bytes, --links says %" G_GINT64_FORMAT, l.tier[k],
                            got, want ? *want : -1);
  }
  GHashTableIter it;
  gpointer name, total;
  g_hash_table_iter_init(&it, tiers);
  while (!why && g_hash_table_iter_next(&it, &name, &total)) {
    bool drawn = false;
    for (int k = 0; k < l.ntiers; k++)
      drawn = drawn || strcmp(l.tier[k], name) == 0;
    if (!drawn && *(gint64 *)total != 0)
      why = g_strdup_printf("tier %s carried %" G_GINT64_FORMAT " bytes x links, not in the load", (char *)name,
                            *(gint64 *)total);
  }
  cs_trace_load_clear(&l);
  return why;
}

typedef struct coll_case {
  const char *platform, *coll, *algo, *size_opt, *size;
} coll_case;

static const coll_case COLL_CASES[] = {
    {"percs:4,4,4", "scatter", "binomial", "--block", "1KiB"},
    {"percs:4,4,4", "bcast", "two-tier", "--bytes", "64KiB"},
    {"torus:2x2x2/2", "allgather", "ring", "--block", "4KiB"},
    {"smp:4x2@300", "reduce", "rabenseifner", "--bytes", "16KiB"},
};

/* Run the case with --trace, --pairs and --timeline; its facts and, when
 * tiers is not NULL, --links' total bytes per tier into it. */
static void run_coll(const coll_case *c, const char *trace, const char *pairs, const char *png, run_facts *f,
                     GHashTable *tiers)
{
  harness_result r;
  run_ok(&r, trace, "collective", "--platform", c->platform, "--coll", c->coll, "--algo", c->algo, c->size_opt,
         c->size, "--timed", "--links", "--format", "csv", "--pairs", pairs, "--timeline", png, NULL);
  if (tiers)
    coll_result(r.out, f, tiers);
  harness_result_clear(&r);
}

START_TEST(collective_trace_pairs_and_load)
{
  const coll_case *c = &COLL_CASES[_i];
  char *one = harness_path(tmpdir, "one.csv"), *two = harness_path(tmpdir, "two.csv");
  char *pairs = harness_path(tmpdir, "pairs.csv"), *png = harness_path(tmpdir, "timeline.png");
  run_facts f;
  GHashTable *tiers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  run_coll(c, one, pairs, png, &f, tiers);
  cs_trace *t = read_trace(one);
  assert_holds(t, &f);
  char *want = harness_read_file(pairs), *got = pairs_of(t);
  ck_assert_str_eq(got, want);
  char *why = load_violation(t, c->platform, tiers);
  ck_assert_msg(why == NULL, "%s", why);
  char *image = harness_read_file(png);
  ck_assert_msg(image && memcmp(image, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is not a PNG", png);
  assert_canonical(one);
  run_coll(c, two, pairs, png, NULL, NULL);
  assert_same_file(one, two);
  g_free(image);
  g_free(want);
  g_free(got);
  cs_trace_free(t);
  g_hash_table_destroy(tiers);
  g_free(one);
  g_free(two);
  g_free(pairs);
  g_free(png);
}
END_TEST

/* --timeline on every other subcommand: a PNG. */
START_TEST(timeline_of_each_run)
{
  const json_case *c = &JSON_CASES[_i];
  char *png = harness_path(tmpdir, "t.png");
  GPtrArray *args = g_ptr_array_new();
  for (int i = 0; c->args[i]; i++)
    g_ptr_array_add(args, (char *)c->args[i]);
  const char *tail[] = {"--timeline", png, "-q", NULL};
  for (int i = 0; i < 4; i++)
    g_ptr_array_add(args, (char *)tail[i]);
  harness_result r;
  harness_run(&r, (const char *const *)args->pdata);
  ck_assert_msg(r.exit_status == 0, "%s exited %d: %s", c->name, r.exit_status, r.err);
  char *image = harness_read_file(png);
  ck_assert_msg(image && memcmp(image, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is not a PNG", png);
  g_free(image);
  harness_result_clear(&r);
  g_ptr_array_free(args, TRUE);
  g_free(png);
}
END_TEST

/* ---- bad input ---- */

/* After harness_expect_bad (exit 2, one line, no --out file): no other
 * file either (the folder held only `a-file`, if anything). */
static void assert_nothing_left(void)
{
  GDir *d = g_dir_open(tmpdir, 0, NULL);
  const char *left = g_dir_read_name(d);
  ck_assert_msg(left == NULL || strcmp(left, "a-file") == 0, "%s left behind", left);
  g_dir_close(d);
}

#define EXPECT_NOTHING(...) \
  do { \
    harness_expect_bad(tmpdir, __VA_ARGS__, NULL); \
    assert_nothing_left(); \
  } while (0)

START_TEST(bad_input_leaves_nothing)
{
  char *csv = harness_path(tmpdir, "t.csv"), *png = harness_path(tmpdir, "t.png");
  EXPECT_NOTHING("--timed", "collective", "--platform", "percs:4,4,4", "--coll", "scatter", "--algo", "binomial",
                 "--block", "1KiB", "--trace", csv);
  EXPECT_NOTHING("--timed", "collective", "--platform", "percs:4,4,4", "--coll", "scatter", "--algo", "binomial",
                 "--block", "1KiB", "--links", "--timeline", png);
  EXPECT_NOTHING("comm ids", "comm", "ids", "--cpm", "2,2,2", "--trace", csv);
  EXPECT_NOTHING("comm space", "comm", "space", "--timeline", png);
  EXPECT_NOTHING("at most 256 ranks", "tree", "-a", "rank-hash", "-n", "300", "-q", "--trace", csv, "--timeline",
                 png);
  EXPECT_NOTHING("20000 messages", "allreduce", "--cluster", "4w", "-q", "--iterations", "1000",
                 "--timeline", png);
  EXPECT_NOTHING("FILE.png", "tree", "-a", "rank-hash", "-n", "8", "-q", "--timeline", csv);
  char *file = harness_write_file(tmpdir, "a-file", "not a folder\n");
  char *under = harness_path(file, "t.csv");
  EXPECT_NOTHING("--trace", "tree", "-a", "rank-hash", "-n", "8", "-q", "--trace", under);
  g_free(under);
  under = harness_path(file, "t.png");
  EXPECT_NOTHING("--timeline", "mcmc", "--platform", "torus:2x2x2/2", "-n", "16", "-q", "--timeline", under);
  g_free(under);
  g_free(file);
  g_free(csv);
  g_free(png);
}
END_TEST

/* ---- the comparisons can fail ---- */

static char *with_lines_changed(const char *text, int drop, int change_bytes, int swap_times)
{
  char **lines = g_strsplit(text, "\n", -1);
  GString *s = g_string_new(NULL);
  for (int i = 0; lines[i] && *lines[i]; i++) {
    if (i == drop)
      continue;
    char **f = g_strsplit(lines[i], ",", -1);
    if (i == change_bytes) {
      g_free(f[6]);
      f[6] = g_strdup_printf("%" G_GINT64_FORMAT, g_ascii_strtoll(f[6], NULL, 10) + 1);
    }
    if (i == swap_times) {
      char *x = f[0];
      f[0] = f[1];
      f[1] = x;
    }
    char *joined = g_strjoinv(",", f);
    g_string_append_printf(s, "%s\n", joined);
    g_free(joined);
    g_strfreev(f);
  }
  g_strfreev(lines);
  return g_string_free(s, FALSE);
}

START_TEST(the_comparisons_can_fail)
{
  const coll_case *c = &COLL_CASES[0];
  char *good = harness_path(tmpdir, "good.csv"), *pairs = harness_path(tmpdir, "pairs.csv");
  char *png = harness_path(tmpdir, "t.png");
  run_facts f;
  GHashTable *tiers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  run_coll(c, good, pairs, png, &f, tiers);
  char *text = harness_read_file(good), *want = harness_read_file(pairs);
  /* row 5 dropped, changed or with its times swapped (the last row's t_recv is the run's end) */
  const int changes[][3] = {{5, -1, -1}, {-1, 5, -1}, {-1, -1, 5}};
  for (size_t k = 0; k < G_N_ELEMENTS(changes); k++) {
    char *bad = with_lines_changed(text, changes[k][0], changes[k][1], changes[k][2]);
    char *path = harness_write_file(tmpdir, "bad.csv", bad);
    cs_trace *t = read_trace(path);
    char *why = violation(t, &f);
    ck_assert_msg(why != NULL, "change %zu went unnoticed", k);
    g_free(why);
    if (k < 2) {
      char *got = pairs_of(t);
      ck_assert_msg(strcmp(got, want) != 0, "change %zu: pairs still equal", k);
      g_free(got);
      why = load_violation(t, c->platform, tiers);
      ck_assert_msg(why != NULL, "change %zu: the load still integrates to --links", k);
      g_free(why);
    }
    cs_trace_free(t);
    g_free(path);
    g_free(bad);
  }
  /* a run's end before the last receive */
  cs_trace *t = read_trace(good);
  run_facts early = f;
  early.sim_time = f.sim_time * 0.99;
  char *why = violation(t, &early);
  ck_assert_msg(why != NULL, "a receive after the run's end went unnoticed");
  g_free(why);
  cs_trace_free(t);
  g_hash_table_destroy(tiers);
  g_free(text);
  g_free(want);
  g_free(good);
  g_free(pairs);
  g_free(png);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("trace");
  TCase *tc = tcase_create("trace");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, trace_of_each_run, 0, (int)G_N_ELEMENTS(JSON_CASES));
  tcase_add_test(tc, allreduce_trace);
  tcase_add_loop_test(tc, collective_trace_pairs_and_load, 0, (int)G_N_ELEMENTS(COLL_CASES));
  tcase_add_loop_test(tc, timeline_of_each_run, 0, (int)G_N_ELEMENTS(JSON_CASES));
  tcase_add_test(tc, bad_input_leaves_nothing);
  tcase_add_test(tc, the_comparisons_can_fail);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
