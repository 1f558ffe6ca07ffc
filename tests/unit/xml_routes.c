/* Tests of platforms/xml_routes.c, collsim's own router for a user's
 * SimGrid platform file, against SimGrid 3.32 itself:
 *  - for each file of tests/data/platforms/ (Full zone with routers and
 *    split-duplex links, Floyd and Dijkstra zones with ties, nested zones
 *    with gateways and bypass routes, clusters joined by zoneRoutes) and
 *    EVERY ordered pair of hosts, each host to itself included: the route's
 *    link names equal sg_host_get_route's, in order, and each link's
 *    bandwidth and latency equal SimGrid's (Check forks each iteration: one
 *    platform per process); where SimGrid has no link from a host to
 *    itself (a torus without loopback), collsim gives "__loopback__";
 *  - tiers: a <prop id="tier"> wins, links of the top zone's routes are
 *    "zone1", of its children's "zone2", unused links "?", "__loopback__"
 *    is "intra" and internal, tiers listed top first with "intra" last;
 *  - a Vivaldi zone, a <link_ctn> naming no link and a second FAT_TREE
 *    cluster (SimGrid numbers their links across clusters) are refused in
 *    one line;
 *  - the hierarchy: every host has an index below the count at every level,
 *    two hosts share an index at level zone<D> exactly when they share
 *    their zone of depth D, and the levels are the ones the rules give.
 */
#include "platforms/xml_routes.h"
#include "platforms/xml_validate.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/netmap.h"

#include <check.h>
#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/dynar.h>

static const char *const FILES[] = {"full_routers.xml", "floyd_routers.xml", "dijkstra_routers.xml",
                                    "nested_zones.xml", "clusters_multi.xml", "torus_pair.xml",
                                    "fattree_dragonfly.xml"};

static char *data_path(const char *name)
{
  return g_build_filename(COLLSIM_SRCDIR, "tests", "data", "platforms", name, NULL);
}

static cs_xml_platform *read_platform(const char *name)
{
  char *path = data_path(name), *text = NULL;
  gsize len = 0;
  ck_assert_msg(g_file_get_contents(path, &text, &len, NULL), "cannot read %s", path);
  GError *err = NULL;
  cs_xml_platform *x = cs_xml_platform_read(path, text, len, &err);
  ck_assert_msg(x, "%s", err ? err->message : "?");
  g_free(text);
  g_free(path);
  return x;
}

static cs_netmap *map_of(const cs_xml_platform *x)
{
  GError *err = NULL;
  cs_netmap *m = cs_xml_routes_netmap(x, &err);
  ck_assert_msg(m, "%s", err ? err->message : "?");
  return m;
}

static void load_in_simgrid(const char *name)
{
  char *path = data_path(name);
  int argc = 2;
  char *argv[] = {"xml_routes", "--log=root.thres:critical", NULL};
  simgrid_init(&argc, argv);
  simgrid_load_platform(path);
  simgrid_run(); /* no actor: seals the platform (Floyd's tables, Dijkstra's graph, loopbacks), as a timed run does */
  g_free(path);
}

/* Our route from host a to b against SimGrid's, link by link; mismatches
 * are appended to why. */
static void compare_pair(const cs_xml_platform *x, const cs_netmap *m, cs_route_buf *buf, int64_t a, int64_t b,
                         GString *why)
{
  const char *na = cs_xml_platform_host(x, (size_t)a), *nb = cs_xml_platform_host(x, (size_t)b);
  xbt_dynar_t d = xbt_dynar_new(sizeof(sg_link_t), NULL);
  sg_host_get_route(sg_host_by_name(na), sg_host_by_name(nb), d);
  const int32_t *ours = NULL;
  int n = cs_netmap_route(m, buf, a, b, &ours);
  if (a == b && xbt_dynar_is_empty(d) && n == 1) { /* no link in SimGrid: collsim's route is the internal loopback */
    char *name = cs_netmap_link_name(m, ours[0]);
    if (strcmp(name, "__loopback__") == 0 && cs_netmap_link_internal(m, ours[0]))
      n = 0;
    g_free(name);
  }
  GString *theirs = g_string_new(NULL), *mine = g_string_new(NULL);
  bool same = n == (int)xbt_dynar_length(d);
  for (unsigned i = 0; i < xbt_dynar_length(d); i++) {
    sg_link_t l = xbt_dynar_get_as(d, i, sg_link_t);
    g_string_append_printf(theirs, " %s", sg_link_get_name(l));
    if (same && (int)i < n) {
      char *name = cs_netmap_link_name(m, ours[i]);
      same = strcmp(name, sg_link_get_name(l)) == 0 &&
             m->ops->link_bandwidth(m, ours[i]) == sg_link_get_bandwidth(l) &&
             m->ops->link_latency(m, ours[i]) == sg_link_get_latency(l);
      g_free(name);
    }
  }
  for (int i = 0; i < n; i++) {
    char *name = cs_netmap_link_name(m, ours[i]);
    g_string_append_printf(mine, " %s", name);
    g_free(name);
  }
  if (!same)
    g_string_append_printf(why, "\n  %s -> %s: SimGrid [%s ] collsim [%s ] (%d links)", na, nb, theirs->str,
                           mine->str, n);
  g_string_free(theirs, TRUE);
  g_string_free(mine, TRUE);
  xbt_dynar_free(&d);
}

START_TEST(test_routes_equal_simgrid)
{
  cs_xml_platform *x = read_platform(FILES[_i]);
  cs_netmap *m = map_of(x);
  load_in_simgrid(FILES[_i]);
  cs_route_buf buf = {NULL, 0};
  GString *why = g_string_new(NULL);
  int64_t n = m->nodes;
  ck_assert_int_eq(n, (int64_t)sg_host_count());
  for (int64_t a = 0; a < n; a++)
    for (int64_t b = 0; b < n; b++)
      compare_pair(x, m, &buf, a, b, why);
  ck_assert_msg(why->len == 0, "%s: routes differ from SimGrid's:%s", FILES[_i], why->str);
  g_string_free(why, TRUE);
  cs_route_buf_clear(&buf);
  cs_netmap_free(m);
  cs_xml_platform_free(x);
}
END_TEST

/* Without SimGrid: every ordered pair has a route of at least one link,
 * the same when asked twice (the map keeps no state between routes). */
START_TEST(test_every_pair_routed)
{
  cs_xml_platform *x = read_platform(FILES[_i]);
  cs_netmap *m = map_of(x);
  cs_route_buf buf = {NULL, 0}, again = {NULL, 0};
  for (int64_t a = 0; a < m->nodes; a++)
    for (int64_t b = 0; b < m->nodes; b++) {
      const int32_t *l1 = NULL, *l2 = NULL;
      int n1 = cs_netmap_route(m, &buf, a, b, &l1), n2 = cs_netmap_route(m, &again, a, b, &l2);
      ck_assert_msg(n1 >= 1, "%s: %lld -> %lld: %d links", FILES[_i], (long long)a, (long long)b, n1);
      ck_assert_int_eq(n1, n2);
      ck_assert(memcmp(l1, l2, sizeof *l1 * (size_t)n1) == 0);
      for (int k = 0; k < n1; k++)
        ck_assert(l1[k] >= 0 && l1[k] < m->nlinks);
    }
  ck_assert_int_eq(cs_netmap_route(m, &buf, 0, m->nodes, (const int32_t **)&(const int32_t *){NULL}), -1);
  cs_route_buf_clear(&buf);
  cs_route_buf_clear(&again);
  cs_netmap_free(m);
  cs_xml_platform_free(x);
}
END_TEST

/* What the router does not know is refused: one CS_INPUT_ERROR line. */
START_TEST(test_refusals)
{
  static const char *const bad[] = {
      "<platform version=\"4.1\"><zone id=\"v\" routing=\"Vivaldi\"><host id=\"a\" speed=\"1Gf\"/>"
      "</zone></platform>",
      "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/>"
      "<host id=\"b\" speed=\"1Gf\"/><link id=\"l\" bandwidth=\"1GBps\"/><route src=\"a\" dst=\"b\">"
      "<link_ctn id=\"l\" direction=\"UP\"/></route></zone></platform>",
      "<platform version=\"4.1\"><zone id=\"w\" routing=\"Full\">"
      "<cluster id=\"f1\" prefix=\"a-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" "
      "topology=\"FAT_TREE\" topo_parameters=\"2;2,2;1,2;1,1\"/>"
      "<cluster id=\"f2\" prefix=\"b-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" "
      "topology=\"FAT_TREE\" topo_parameters=\"2;2,2;1,2;1,1\"/></zone></platform>",
  };
  static const char *const why[] = {"routing=\"Vivaldi\"", "<link_ctn id=\"l\" direction=\"UP\">",
                                    "a second FAT_TREE cluster (after f1)"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    GError *err = NULL;
    cs_xml_platform *x = cs_xml_platform_read("bad.xml", bad[i], strlen(bad[i]), &err);
    ck_assert_msg(x, "%s", err ? err->message : "?");
    ck_assert_ptr_null(cs_xml_routes_netmap(x, &err));
    ck_assert(err && err->domain == CS_INPUT_ERROR && !strchr(err->message, '\n'));
    ck_assert_msg(strstr(err->message, why[i]), "%s", err->message);
    g_error_free(err);
    cs_xml_platform_free(x);
  }
}
END_TEST

static const char *tier_of(cs_netmap *m, const char *link)
{
  int64_t id = cs_netmap_link_id(m, link);
  ck_assert_msg(id >= 0, "no link %s", link);
  return cs_netmap_link_tier(m, id);
}

START_TEST(test_tiers)
{
  cs_xml_platform *x = read_platform("full_routers.xml");
  cs_netmap *m = map_of(x);
  ck_assert_str_eq(tier_of(m, "2"), "wan"); /* its <prop id="tier"> */
  ck_assert_str_eq(tier_of(m, "1"), "zone1");
  ck_assert_str_eq(tier_of(m, "3_UP"), "zone1");
  ck_assert_str_eq(tier_of(m, "3_DOWN"), "zone1");
  ck_assert_str_eq(tier_of(m, "__loopback__"), "intra");
  ck_assert(cs_netmap_link_internal(m, cs_netmap_link_id(m, "__loopback__")));
  ck_assert(!cs_netmap_link_internal(m, cs_netmap_link_id(m, "lo-Tremblay")));
  ck_assert_str_eq(m->tier_name[m->ntiers - 1], "intra");
  cs_netmap_free(m);
  cs_xml_platform_free(x);

  x = read_platform("nested_zones.xml");
  m = map_of(x);
  ck_assert_str_eq(tier_of(m, "AB"), "zone1");
  ck_assert_str_eq(tier_of(m, "BD_DOWN"), "zone1");
  ck_assert_str_eq(tier_of(m, "BD_UP"), "zone1"); /* the symmetrical route's way back */
  ck_assert_str_eq(tier_of(m, "la1"), "zone2");
  ck_assert_str_eq(tier_of(m, "ld12_UP"), "zone2");
  ck_assert_str_eq(tier_of(m, "ld1"), "zone3");
  ck_assert_int_lt(cs_netmap_tier(m, "zone1"), cs_netmap_tier(m, "zone2"));
  ck_assert_int_lt(cs_netmap_tier(m, "zone2"), cs_netmap_tier(m, "zone3"));
  cs_netmap_free(m);
  cs_xml_platform_free(x);

  x = read_platform("floyd_routers.xml");
  m = map_of(x);
  ck_assert_str_eq(tier_of(m, "e3_DOWN"), "zone1"); /* back half of a symmetrical route */
  cs_netmap_free(m);
  cs_xml_platform_free(x);
}
END_TEST

/* The zone of depth d holding host name h, by the file's own structure:
 * the host's name prefix here (a-1: A, d1-x: D) stands for it. */
static void check_hierarchy_properties(const cs_xml_platform *x, const cs_hierarchy *h)
{
  int64_t n = (int64_t)cs_xml_platform_host_count(x);
  ck_assert_int_eq(h->nodes, n);
  for (int l = 0; l < h->node_level; l++) {
    bool *used = g_new0(bool, h->level[l].count);
    for (int64_t g = 0; g < n; g++) {
      int64_t i = cs_hier_node_index(h, g, l);
      ck_assert_msg(i >= 0 && i < h->level[l].count, "host %lld level %d index %lld", (long long)g, l,
                    (long long)i);
      used[i] = true;
    }
    for (int64_t i = 0; i < h->level[l].count; i++)
      ck_assert_msg(used[i], "level %s: entity %lld has no host", h->level[l].name, (long long)i);
    g_free(used);
  }
  /* levels nest: two hosts in one entity of a level are in one entity of every level above */
  for (int64_t a = 0; a < n; a++)
    for (int64_t b = 0; b < n; b++)
      for (int l = 1; l < h->node_level; l++)
        if (cs_hier_node_index(h, a, l) == cs_hier_node_index(h, b, l))
          ck_assert_int_eq(cs_hier_node_index(h, a, l - 1), cs_hier_node_index(h, b, l - 1));
}

START_TEST(test_hierarchy_nested)
{
  cs_xml_platform *x = read_platform("nested_zones.xml");
  cs_hierarchy h;
  cs_xml_routes_hierarchy(x, 4, &h);
  check_hierarchy_properties(x, &h);
  ck_assert_int_eq(h.node_level, 1);
  ck_assert_str_eq(h.level[0].name, "zone2");
  ck_assert_str_eq(h.level[0].tier, "zone1");
  ck_assert_int_eq(h.level[0].count, 4); /* A, B, C, D */
  ck_assert_str_eq(h.level[1].tier, ""); /* hosts at depths 2 and 3 */
  ck_assert_int_eq(h.cores, 4);
  /* same zone of depth 2 <=> same index: the zone is the name's first letter */
  size_t n = cs_xml_platform_host_count(x);
  for (size_t a = 0; a < n; a++)
    for (size_t b = 0; b < n; b++) {
      bool same_zone = cs_xml_platform_host(x, a)[0] == cs_xml_platform_host(x, b)[0];
      bool same_index = cs_hier_node_index(&h, (int64_t)a, 0) == cs_hier_node_index(&h, (int64_t)b, 0);
      ck_assert_msg(same_zone == same_index, "%s and %s", cs_xml_platform_host(x, a), cs_xml_platform_host(x, b));
    }
  cs_xml_platform_free(x);
}
END_TEST

START_TEST(test_hierarchy_flat_and_clusters)
{
  cs_xml_platform *x = read_platform("full_routers.xml");
  cs_hierarchy h;
  cs_xml_routes_hierarchy(x, 1, &h);
  check_hierarchy_properties(x, &h);
  ck_assert_int_eq(h.node_level, 0); /* one zone: nothing above the node */
  ck_assert_str_eq(h.level[0].tier, "zone1");
  cs_xml_platform_free(x);

  x = read_platform("clusters_multi.xml");
  cs_xml_routes_hierarchy(x, 2, &h);
  check_hierarchy_properties(x, &h);
  ck_assert_int_ge(h.node_level, 1);
  ck_assert_str_eq(h.level[0].name, "zone2");
  ck_assert_int_eq(h.level[0].count, 4); /* three clusters and a zone */
  size_t n = cs_xml_platform_host_count(x);
  for (size_t a = 0; a < n; a++)
    for (size_t b = 0; b < n; b++) {
      const char *na = cs_xml_platform_host(x, a), *nb = cs_xml_platform_host(x, b);
      const char *sa = strchr(na, '.'), *sb = strchr(nb, '.');
      bool same_zone = (sa && sb && strcmp(sa, sb) == 0) || (!sa && !sb && na[0] == nb[0]);
      bool same_index = cs_hier_node_index(&h, (int64_t)a, 0) == cs_hier_node_index(&h, (int64_t)b, 0);
      ck_assert_msg(same_zone == same_index, "%s and %s", na, nb);
    }
  cs_xml_platform_free(x);

  x = read_platform("torus_pair.xml"); /* two tori of one rank: their own levels below zone2 */
  cs_xml_routes_hierarchy(x, 1, &h);
  check_hierarchy_properties(x, &h);
  char *d = cs_hier_describe(&h);
  ck_assert_str_eq(d, "zone2:2 > Z:2 > Y:2 > node:20 > core:1");
  g_free(d);
  ck_assert_int_eq(h.level[1].count, 4); /* Z: 2 in each torus */
  ck_assert_int_eq(h.level[2].count, 8); /* Y: 2 x 2 in each */
  ck_assert_str_eq(h.level[1].tier, "Z");
  ck_assert_str_eq(h.level[h.node_level].tier, "X");
  for (size_t a = 0; a < cs_xml_platform_host_count(x); a++)
    ck_assert_int_eq(cs_hier_node_index(&h, (int64_t)a, 0), cs_xml_platform_host(x, a)[1] == 'a' ? 0 : 1);
  cs_xml_platform_free(x);
}
END_TEST

static Suite *xml_routes_suite(void)
{
  Suite *s = suite_create("xml_routes");
  TCase *tc = tcase_create("simgrid");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_routes_equal_simgrid, 0, (int)G_N_ELEMENTS(FILES));
  suite_add_tcase(s, tc);
  tc = tcase_create("tiers");
  tcase_add_loop_test(tc, test_every_pair_routed, 0, (int)G_N_ELEMENTS(FILES));
  tcase_add_test(tc, test_tiers);
  tcase_add_test(tc, test_refusals);
  tcase_add_test(tc, test_hierarchy_nested);
  tcase_add_test(tc, test_hierarchy_flat_and_clusters);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(xml_routes_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
