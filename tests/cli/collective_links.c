/* `collsim collective --links --per-link` through the binary ($COLLSIM, see
 * harness.h): the per-link CSV adds up to the summary.
 *  - The CSV has one row per link (SimGrid's internal __loopback__ left out:
 *    it carries nothing on collsim's platforms), with its tier and both
 *    endpoints, all known.
 *  - Summed per tier (links, links carrying a message, min and max bytes over
 *    those, total bytes, messages), the CSV gives the summary's tiers
 *    exactly, no tier more or less: on a torus, a Dragonfly (the example of
 *    issue 15), PERCS (two tiers), an SMP cluster and an FG-MPI system, for
 *    several algorithms each, untimed and timed (the timed CSV counts the
 *    messages the actors delivered).
 *  - The comparison itself fails on a CSV with one row changed, one row
 *    dropped or one unused link marked used. */
#include "tests/lib/harness.h"

#include <check.h>
#include <inttypes.h>
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

/* One tier's numbers, as the summary states them or as the CSV adds up. */
typedef struct tier_sum {
  char name[32];
  gint64 links, links_used, min_bytes, max_bytes, total_bytes, messages;
} tier_sum;

static tier_sum *tier_in(GArray *tiers, const char *name)
{
  for (guint i = 0; i < tiers->len; i++)
    if (strcmp(g_array_index(tiers, tier_sum, i).name, name) == 0)
      return &g_array_index(tiers, tier_sum, i);
  tier_sum fresh = {0};
  g_strlcpy(fresh.name, name, sizeof fresh.name);
  g_array_append_val(tiers, fresh);
  return &g_array_index(tiers, tier_sum, tiers->len - 1);
}

#define CSV_HEADER "link,name,tier,src,dst,bytes,messages"

/* The per-link CSV summed per tier; FALSE (and *why) on a malformed row. */
static gboolean csv_tiers(const char *csv, GArray *tiers, char **why)
{
  char **lines = g_strsplit(csv, "\n", -1);
  gboolean ok = strcmp(lines[0], CSV_HEADER) == 0;
  if (!ok)
    *why = g_strdup_printf("CSV header '%s'", lines[0]);
  for (int i = 1; ok && lines[i] && *lines[i]; i++) {
    char **f = g_strsplit(lines[i], ",", -1);
    ok = g_strv_length(f) == 7 && strcmp(f[3], "?") != 0 && strcmp(f[4], "?") != 0;
    if (!ok) {
      *why = g_strdup_printf("CSV row '%s': not 7 fields with known endpoints", lines[i]);
    } else {
      tier_sum *t = tier_in(tiers, f[2]);
      gint64 bytes = g_ascii_strtoll(f[5], NULL, 10), messages = g_ascii_strtoll(f[6], NULL, 10);
      t->links++;
      if (messages > 0) {
        t->min_bytes = t->links_used == 0 || bytes < t->min_bytes ? bytes : t->min_bytes;
        t->max_bytes = MAX(t->max_bytes, bytes);
        t->links_used++;
        t->total_bytes += bytes;
        t->messages += messages;
      }
    }
    g_strfreev(f);
  }
  g_strfreev(lines);
  return ok;
}

/* The summary's tiers, from the JSON result ("tiers": {"L1": {...}, ...}). */
static gboolean json_tiers(const char *json, GArray *tiers, char **why)
{
  char **names = harness_json_members(json, "tiers");
  if (!names) {
    *why = g_strdup("no tiers in the JSON result");
    return FALSE;
  }
  static const char *const keys[] = {"links", "links_used", "min_bytes", "max_bytes", "total_bytes", "messages"};
  gboolean ok = TRUE;
  for (char **name = names; ok && *name; name++) {
    tier_sum *t = tier_in(tiers, *name);
    gint64 *fields[] = {&t->links, &t->links_used, &t->min_bytes, &t->max_bytes, &t->total_bytes, &t->messages};
    for (size_t i = 0; ok && i < G_N_ELEMENTS(keys); i++) {
      char *path = g_strdup_printf("tiers.%s.%s", *name, keys[i]);
      ok = harness_json_int(json, path, fields[i]);
      if (!ok)
        *why = g_strdup_printf("no integer %s in %s", path, json);
      g_free(path);
    }
  }
  g_strfreev(names);
  return ok;
}

static gboolean same_tier(const tier_sum *a, const tier_sum *b)
{
  return a->links == b->links && a->links_used == b->links_used && a->min_bytes == b->min_bytes &&
         a->max_bytes == b->max_bytes && a->total_bytes == b->total_bytes && a->messages == b->messages;
}

static char *tier_text(const tier_sum *t)
{
  return g_strdup_printf("%s: %" G_GINT64_FORMAT " links, %" G_GINT64_FORMAT " used, bytes %" G_GINT64_FORMAT
                         "..%" G_GINT64_FORMAT ", total %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT " messages",
                         t->name, t->links, t->links_used, t->min_bytes, t->max_bytes, t->total_bytes, t->messages);
}

/* Whether the per-link CSV sums per tier to the summary, exactly and tier
 * for tier; FALSE with the first difference in *why (g_free it). */
static gboolean tiers_match(const char *json, const char *csv, char **why)
{
  GArray *want = g_array_new(FALSE, TRUE, sizeof(tier_sum)), *got = g_array_new(FALSE, TRUE, sizeof(tier_sum));
  gboolean ok = json_tiers(json, want, why) && csv_tiers(csv, got, why);
  if (ok && want->len != got->len) {
    *why = g_strdup_printf("the summary has %u tiers, the CSV %u", want->len, got->len);
    ok = FALSE;
  }
  for (guint i = 0; ok && i < want->len; i++) {
    const tier_sum *w = &g_array_index(want, tier_sum, i), *g = tier_in(got, w->name);
    if (!same_tier(w, g)) {
      char *a = tier_text(w), *b = tier_text(g);
      *why = g_strdup_printf("summary %s; CSV %s", a, b);
      g_free(a);
      g_free(b);
      ok = FALSE;
    }
  }
  g_array_free(want, TRUE);
  g_array_free(got, TRUE);
  return ok;
}

typedef struct link_case {
  const char *platform, *coll, *algo, *size;
  gboolean timed;
} link_case;

static const char *size_option(const char *coll)
{
  return strcmp(coll, "bcast") == 0 || strcmp(coll, "reduce") == 0 ? "--bytes" : "--block";
}

/* Run one case: the JSON result (g_free it) and the per-link CSV in *csv. */
static char *run_case(const link_case *c, char **csv)
{
  char *path = harness_path(tmpdir, "links.csv");
  harness_result r;
  harness_runl(&r, "collective", "--platform", c->platform, "--coll", c->coll, "--algo", c->algo,
               size_option(c->coll), c->size, "--per-link", path, c->timed ? "--timed" : "--links", "--format", "json",
               "-q", NULL);
  ck_assert_msg(r.exit_status == 0, "%s %s %s: %s", c->platform, c->coll, c->algo, r.err);
  *csv = harness_read_file(path);
  ck_assert_msg(*csv != NULL, "%s %s %s: no per-link CSV", c->platform, c->coll, c->algo);
  char *json = g_strdup(r.out);
  harness_result_clear(&r);
  g_free(path);
  return json;
}

static const link_case CASES[] = {
    {"dragonfly:9,4,2,2,4", "allgather", "ring", "64KiB", FALSE}, /* issue 15's example */
    {"dragonfly:4,2,2,1,2", "bcast", "two-tier", "1000", FALSE},
    {"dragonfly:4,2,2,1,2", "reduce", "rabenseifner", "1000", TRUE},
    {"torus:2x2x4/2", "bcast", "vandegeijn", "4KiB", FALSE},
    {"torus:2x2x4/2", "allgather", "recursive-doubling", "100", FALSE},
    {"torus:3x2x2/1", "gather", "binomial", "100", TRUE},
    {"percs:3,4,2", "scatter", "two-tier", "1KiB", FALSE},
    {"percs:3,4,2", "reduce-scatter", "two-tier", "96", FALSE},
    {"percs:3,4,2", "allgather", "two-tier", "96", TRUE},
    {"smp:4x2@300", "gather", "binomial", "1KiB", FALSE},
    {"smp:4x2@300/map=inorder", "allgather", "ring", "1KiB", TRUE},
    {"cpm:2,2,2", "reduce-scatter", "pairwise", "96", FALSE},
};

START_TEST(per_link_csv_adds_up_to_the_summary)
{
  const link_case *c = &CASES[_i];
  char *csv = NULL, *json = run_case(c, &csv), *why = NULL;
  ck_assert_msg(tiers_match(json, csv, &why), "%s %s %s%s: %s", c->platform, c->coll, c->algo,
                c->timed ? " timed" : "", why);
  ck_assert(strstr(csv, "__loopback__") == NULL);
  g_free(json);
  g_free(csv);
}
END_TEST

/* Issue 15's example: the summary's intra tier (72 loopbacks, 53.8 MiB
 * each) is in the CSV, with both endpoints the node.  (Link 324: the
 * 325th link by name; SimGrid's unused internal __loopback__ took a number
 * before issue 27.) */
START_TEST(example_intra_rows)
{
  char *csv = NULL, *json = run_case(&CASES[0], &csv);
  ck_assert(strstr(csv, "\n324,lo-node-0,intra,node-0,node-0,56426496,861\n") != NULL);
  ck_assert(strstr(csv, ",L2-g0-g1,L2,router-0-0,router-1-3,18808832,287\n") != NULL);
  ck_assert_int_eq(harness_count_lines(csv), 1 + 108 + 72 + 144 + 72);
  g_free(json);
  g_free(csv);
}
END_TEST

/* csv with the numeric field `field` (5 bytes, 6 messages) of data row `row`
 * set to value, or that row dropped (field < 0). */
static char *perturbed(const char *csv, int row, int field, const char *value)
{
  char **lines = g_strsplit(csv, "\n", -1);
  GString *out = g_string_new(lines[0]);
  for (int i = 1; lines[i] && *lines[i]; i++) {
    if (i != row) {
      g_string_append_printf(out, "\n%s", lines[i]);
      continue;
    }
    if (field < 0)
      continue;
    char **f = g_strsplit(lines[i], ",", -1);
    g_free(f[field]);
    f[field] = g_strdup(value);
    char *joined = g_strjoinv(",", f);
    g_string_append_printf(out, "\n%s", joined);
    g_free(joined);
    g_strfreev(f);
  }
  g_string_append_c(out, '\n');
  g_strfreev(lines);
  return g_string_free(out, FALSE);
}

/* Data row of the first link of csv that carried messages (used) or none. */
static int row_with(const char *csv, gboolean used)
{
  char **lines = g_strsplit(csv, "\n", -1);
  int found = -1;
  for (int i = 1; found < 0 && lines[i] && *lines[i]; i++)
    if ((strcmp(strrchr(lines[i], ',') + 1, "0") != 0) == used)
      found = i;
  g_strfreev(lines);
  ck_assert_int_ge(found, 1);
  return found;
}

static void expect_mismatch(const char *json, const char *csv, const char *what)
{
  char *why = NULL;
  ck_assert_msg(!tiers_match(json, csv, &why), "%s went unnoticed", what);
  g_free(why);
}

START_TEST(the_comparison_can_fail)
{
  const link_case c = {"percs:3,4,2", "allgather", "ring", "1KiB", FALSE};
  char *csv = NULL, *json = run_case(&c, &csv), *why = NULL;
  ck_assert_msg(tiers_match(json, csv, &why), "%s", why);
  int used = row_with(csv, TRUE), unused = row_with(csv, FALSE);
  char *one_byte_more = perturbed(csv, used, 5, "11265"); /* every used link of this run carries 11264 or 22528 */
  expect_mismatch(json, one_byte_more, "a link's bytes off by one");
  char *dropped = perturbed(csv, unused, -1, NULL);
  expect_mismatch(json, dropped, "a dropped row");
  char *marked = perturbed(csv, unused, 6, "1");
  expect_mismatch(json, marked, "an unused link marked used");
  char *unknown = perturbed(csv, used, 3, "?");
  expect_mismatch(json, unknown, "an unknown endpoint");
  g_free(one_byte_more);
  g_free(dropped);
  g_free(marked);
  g_free(unknown);
  g_free(json);
  g_free(csv);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("cli-links");
  TCase *tc = tcase_create("cli-links");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, per_link_csv_adds_up_to_the_summary, 0, (int)G_N_ELEMENTS(CASES));
  tcase_add_test(tc, example_intra_rows);
  tcase_add_test(tc, the_comparison_can_fail);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
