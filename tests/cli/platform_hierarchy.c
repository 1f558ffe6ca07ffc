/* `collsim platform --hierarchy` (issue 27) on every registered family's
 * examples and on an XML file written by a family:
 *  - the levels come top first and end with node and core; each level's
 *    count is its entities per parent times the count above (when the
 *    entities per parent are equal); node's count is the nodes, core's the
 *    ranks;
 *  - the links per tier add up to the machine's links, and each level's
 *    tier_links is its tier's count;
 *  - the two-tier projection holds every rank (sn x nps x cpn = ranks);
 *  - the CSV has one row per level;
 *  - a bad spec is refused as bad input. */
#include "tests/lib/harness.h"
#include "tests/lib/platform_specs.h"

#include <check.h>
#include <string.h>

static char *hierarchy_json(const char *spec)
{
  harness_result r;
  harness_runl(&r, "platform", "--platform", spec, "--hierarchy", "--format", "json", NULL);
  ck_assert_msg(r.exit_status == 0, "%s: %s", spec, r.err);
  char *out = g_strdup(r.out);
  harness_result_clear(&r);
  return out;
}

static gint64 json_int(const char *json, const char *path)
{
  gint64 v = -1;
  ck_assert_msg(harness_json_int(json, path, &v), "no %s in %s", path, json);
  return v;
}

static void check_levels(const char *spec, const char *json)
{
  char **levels = harness_json_members(json, "levels");
  ck_assert_ptr_nonnull(levels);
  guint n = g_strv_length(levels);
  ck_assert_msg(n >= 2 && strcmp(levels[n - 2], "node") == 0 && strcmp(levels[n - 1], "core") == 0,
                "%s: the levels end with node and core", spec);
  gint64 above = 1;
  for (guint l = 0; l < n; l++) {
    char *count = g_strdup_printf("levels.%s.count", levels[l]), *per = g_strdup_printf("levels.%s.per_parent", levels[l]);
    gint64 c = json_int(json, count), pp = json_int(json, per);
    ck_assert_msg(c >= above, "%s: level %s has %lld entities, fewer than the %lld above", spec, levels[l],
                  (long long)c, (long long)above);
    if (pp > 0)
      ck_assert_msg(c == pp * above, "%s: level %s: %lld != %lld x %lld", spec, levels[l], (long long)c,
                    (long long)pp, (long long)above);
    above = c;
    g_free(count);
    g_free(per);
  }
  ck_assert_int_eq(json_int(json, "levels.node.count"), json_int(json, "nodes"));
  ck_assert_int_eq(json_int(json, "levels.core.count"), json_int(json, "ranks"));
  g_strfreev(levels);
}

static void check_tiers(const char *spec, const char *json)
{
  char **tiers = harness_json_members(json, "tiers");
  ck_assert_ptr_nonnull(tiers);
  gint64 sum = 0;
  for (char **t = tiers; *t; t++) {
    char *path = g_strdup_printf("tiers.%s.links", *t);
    gint64 links = json_int(json, path);
    ck_assert_msg(links > 0, "%s: tier %s listed with no links", spec, *t);
    sum += links;
    g_free(path);
  }
  ck_assert_msg(sum == json_int(json, "links"), "%s: tiers add up to %lld links, not %lld", spec, (long long)sum,
                (long long)json_int(json, "links"));
  g_strfreev(tiers);
  gint64 ranks = json_int(json, "ranks");
  ck_assert_int_eq(json_int(json, "sn") * json_int(json, "nps") * json_int(json, "cpn"), ranks);
}

START_TEST(every_example_has_a_consistent_view)
{
  const char *spec = TEST_PLATFORMS[_i];
  char *json = hierarchy_json(spec);
  check_levels(spec, json);
  check_tiers(spec, json);
  g_free(json);
}
END_TEST

START_TEST(csv_has_a_row_per_level)
{
  harness_result r;
  harness_runl(&r, "platform", "--platform", "percs:4,4,2", "--hierarchy", "--format", "csv", NULL);
  ck_assert_int_eq(r.exit_status, 0);
  ck_assert_str_eq(r.out, "platform,nodes,cores,level,count,per_parent,tier,tier_links\n"
                          "\"percs:4,4,2\",16,2,supernode,4,4,L2,12\n"
                          "\"percs:4,4,2\",16,2,node,16,4,L1,48\n"
                          "\"percs:4,4,2\",16,2,core,32,2,intra,16\n");
  harness_result_clear(&r);
}
END_TEST

START_TEST(a_written_file_has_the_families_tiers)
{
  char *dir = harness_tmpdir_new(), *xml = harness_path(dir, "percs.xml");
  harness_result r;
  harness_runl(&r, "platform", "--platform", "percs:3,2,2", "--out", xml, NULL);
  ck_assert_int_eq(r.exit_status, 0);
  harness_result_clear(&r);
  char *from_file = hierarchy_json(xml), *from_family = hierarchy_json("percs:3,2,2");
  /* the file's links carry their tier as a property: the same links per tier */
  for (const char *const *t = (const char *const[]){"L1", "L2", "intra", NULL}; *t; t++) {
    char *path = g_strdup_printf("tiers.%s.links", *t);
    ck_assert_int_eq(json_int(from_file, path), json_int(from_family, path));
    g_free(path);
  }
  check_levels(xml, from_file);
  check_tiers(xml, from_file);
  g_free(from_file);
  g_free(from_family);
  g_free(xml);
  harness_tmpdir_remove(dir);
}
END_TEST

START_TEST(bad_spec_is_bad_input)
{
  char *dir = harness_tmpdir_new();
  harness_expect_bad(dir, "percs", "platform", "--platform", "percs:0,2,2", "--hierarchy", NULL);
  harness_tmpdir_remove(dir);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("platform-hierarchy");
  TCase *tc = tcase_create("hierarchy");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, every_example_has_a_consistent_view, 0, (int)N_TEST_PLATFORMS);
  tcase_add_test(tc, csv_has_a_row_per_level);
  tcase_add_test(tc, a_written_file_has_the_families_tiers);
  tcase_add_test(tc, bad_spec_is_bad_input);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
