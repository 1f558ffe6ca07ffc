/* Tests of collsim's emulation of SimGrid's cluster zones
 * (platforms/sg_cluster.h) against SimGrid 3.32 itself.  For each cluster
 * element below (Check forks a child per loop iteration: SimGrid loads one
 * platform per process), the element is written to a platform file, loaded
 * in SimGrid, and:
 *  - SimGrid creates the cluster's hosts, no more;
 *  - the links SimGrid creates are exactly the emulation's, by name, with
 *    equal bandwidth and latency (count = sg_link_count minus SimGrid's own
 *    __loopback__, names all found, none twice);
 *  - for EVERY ordered pair of hosts (a host to itself included) the route's
 *    link names equal sg_host_get_route's, in order;
 *  - flat clusters: the routes between a host and the cluster's router too,
 *    seen through a second cluster joined to the first by a zoneRoute
 *    between their routers (SimGrid's route from host i of c to o's host:
 *    c(i -> router), the link between the zones, o(router -> host)).
 * Without SimGrid: the ends of each route's links chain from its source
 * host to its destination, the netmap's extra "__loopback__" (only where a
 * host's route to itself is empty), tiers, the torus hierarchy, and the
 * parameters SimGrid would refuse. */
#include "platforms/sg_cluster.h"

#include <check.h>
#include <glib/gstdio.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cluster element; 0 / NULL: attribute absent. */
typedef struct cluster_def {
  const char *id, *prefix, *suffix, *radical, *topology, *topo_parameters, *sharing, *bb_sharing, *router_id;
  double bw, lat, loopback_bw, loopback_lat, limiter, bb_bw, bb_lat;
  bool outer; /* flat: add the second cluster and the zoneRoute, to test the router's routes */
} cluster_def;

static const cluster_def cases[] = {
    {.id = "c", .prefix = "h-", .suffix = "", .radical = "0-4", .bw = 1e9, .lat = 5e-6, .outer = true},
    {.id = "c", .prefix = "h-", .suffix = "", .radical = "0-4", .bw = 1e9, .lat = 5e-6, .bb_bw = 2e10,
     .bb_lat = 1e-6, .outer = true},
    {.id = "cl", .prefix = "c-", .suffix = ".me", .radical = "0-3,7,10-11", .bw = 1.25e9, .lat = 2e-6,
     .loopback_bw = 5e9, .loopback_lat = 1e-7, .limiter = 3e9, .bb_bw = 1e10, .bb_lat = 3e-6, .outer = true},
    {.id = "s", .prefix = "n", .suffix = "", .radical = "1-3,9", .sharing = "SHARED", .bw = 1e9, .lat = 1e-6,
     .limiter = 2e9, .bb_bw = 5e9, .bb_sharing = "FATPIPE", .outer = true},
    {.id = "f", .prefix = "n", .suffix = "", .radical = "0-3", .sharing = "FATPIPE", .bw = 1e9, .lat = 1e-6,
     .loopback_lat = 2e-7, .router_id = "gw", .outer = true},
    {.id = "f2", .prefix = "n", .suffix = "", .radical = "5-8", .sharing = "SHARED", .bw = 1e9, .lat = 1e-6,
     .outer = true},
    {.id = "t", .prefix = "node-", .suffix = "", .radical = "0-7", .topology = "TORUS", .topo_parameters = "2,2,2",
     .bw = 4.25e8, .lat = 1e-7, .loopback_bw = 2e9, .loopback_lat = 1e-7},
    {.id = "t", .prefix = "node-", .suffix = "", .radical = "0-11", .topology = "TORUS", .topo_parameters = "3,2,2",
     .bw = 4.25e8, .lat = 1e-7},
    {.id = "bgp", .prefix = "c-", .suffix = ".me", .radical = "0-5,10-15", .topology = "TORUS",
     .topo_parameters = "4,3", .bw = 1e9, .lat = 1e-7, .limiter = 5e8},
    {.id = "ring", .prefix = "r", .suffix = "", .radical = "0-4", .topology = "TORUS", .topo_parameters = "5",
     .bw = 1e9, .lat = 1e-7},
    {.id = "t3", .prefix = "node-", .suffix = "", .radical = "0-26", .topology = "TORUS", .topo_parameters = "3,3,3",
     .bw = 1e9, .lat = 1e-7},
    {.id = "t3", .prefix = "node-", .suffix = "", .radical = "0-26", .topology = "TORUS", .topo_parameters = "3,3,3",
     .bw = 1e9, .lat = 1e-7, .loopback_bw = 4e9, .loopback_lat = 5e-8},
    {.id = "ts", .prefix = "n", .suffix = "", .radical = "0-15", .topology = "TORUS", .topo_parameters = "4,4",
     .sharing = "SHARED", .bw = 1e9, .lat = 1e-7, .limiter = 2e9, .loopback_bw = 3e9},
    {.id = "t6", .prefix = "n", .suffix = "", .radical = "0-17", .topology = "TORUS", .topo_parameters = "6,1,3",
     .bw = 1e9, .lat = 1e-7},
    /* more radicals than nodes: SimGrid creates the first 8 hosts only */
    {.id = "t8", .prefix = "n", .suffix = "", .radical = "0-9", .topology = "TORUS", .topo_parameters = "2,4",
     .bw = 1e9, .lat = 1e-7},
};

/* The second cluster of the router tests. */
static const cluster_def outer_def = {.id = "o", .prefix = "o-", .suffix = "", .radical = "0", .bw = 3e9, .lat = 4e-6};
#define INTER_BW 7e9
#define INTER_LAT 9e-6

static double absent_as_nan(double v) { return v == 0 ? NAN : v; }

/* "0-3,7" -> 0 1 2 3 7 */
static GArray *expand_radical(const char *radical)
{
  GArray *out = g_array_new(FALSE, FALSE, sizeof(int64_t));
  char **groups = g_strsplit(radical, ",", -1);
  for (char **g = groups; *g; g++) {
    int64_t lo, hi;
    if (sscanf(*g, "%" SCNd64 "-%" SCNd64, &lo, &hi) != 2)
      hi = lo;
    for (int64_t r = lo; r <= hi; r++)
      g_array_append_val(out, r);
  }
  g_strfreev(groups);
  return out;
}

static cs_sg_cluster *build(const cluster_def *d, GError **err)
{
  GArray *radical = expand_radical(d->radical);
  cs_sgc_params p = {.id = d->id,
                     .prefix = d->prefix,
                     .suffix = d->suffix,
                     .radical = (const int64_t *)(void *)radical->data,
                     .nhosts = radical->len,
                     .topology = d->topology,
                     .topo_parameters = d->topo_parameters,
                     .bw = d->bw,
                     .lat = d->lat,
                     .sharing_policy = d->sharing,
                     .loopback_bw = absent_as_nan(d->loopback_bw),
                     .loopback_lat = absent_as_nan(d->loopback_lat),
                     .limiter_link = absent_as_nan(d->limiter),
                     .bb_bw = absent_as_nan(d->bb_bw),
                     .bb_lat = absent_as_nan(d->bb_lat),
                     .bb_sharing_policy = d->bb_sharing,
                     .router_id = d->router_id};
  cs_sg_cluster *c = cs_sg_cluster_new(&p, err);
  g_array_free(radical, TRUE);
  return c;
}

static cs_sg_cluster *build_ok(const cluster_def *d)
{
  GError *err = NULL;
  cs_sg_cluster *c = build(d, &err);
  ck_assert_msg(c, "%s: %s", d->id, err ? err->message : "?");
  return c;
}

/* ---- the platform file ---- */

static void attr(GString *x, const char *name, const char *value)
{
  if (value)
    g_string_append_printf(x, " %s=\"%s\"", name, value);
}

static void attr_num(GString *x, const char *name, double value, const char *unit)
{
  if (value != 0)
    g_string_append_printf(x, " %s=\"%.17g%s\"", name, value, unit);
}

static void write_cluster(GString *x, const cluster_def *d)
{
  g_string_append(x, "  <cluster speed=\"1Gf\"");
  attr(x, "id", d->id);
  attr(x, "prefix", d->prefix);
  attr(x, "suffix", d->suffix);
  attr(x, "radical", d->radical);
  attr(x, "topology", d->topology);
  attr(x, "topo_parameters", d->topo_parameters);
  attr(x, "sharing_policy", d->sharing);
  attr(x, "bb_sharing_policy", d->bb_sharing);
  attr(x, "router_id", d->router_id);
  g_string_append_printf(x, " bw=\"%.17gBps\" lat=\"%.17gs\"", d->bw, d->lat);
  attr_num(x, "loopback_bw", d->loopback_bw, "Bps");
  attr_num(x, "loopback_lat", d->loopback_lat, "s");
  attr_num(x, "limiter_link", d->limiter, "Bps");
  attr_num(x, "bb_bw", d->bb_bw, "Bps");
  attr_num(x, "bb_lat", d->bb_lat, "s");
  g_string_append(x, "/>\n");
}

static char *write_platform(const cluster_def *d, const cs_sg_cluster *c, const cs_sg_cluster *o)
{
  GString *x = g_string_new("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                            "<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n");
  write_cluster(x, d);
  if (o) {
    write_cluster(x, &outer_def);
    g_string_append_printf(x, "  <link id=\"inter\" bandwidth=\"%.17gBps\" latency=\"%.17gs\"/>\n", INTER_BW,
                           INTER_LAT);
    g_string_append_printf(x,
                           "  <zoneRoute src=\"%s\" dst=\"%s\" gw_src=\"%s\" gw_dst=\"%s\"><link_ctn id=\"inter\"/>"
                           "</zoneRoute>\n",
                           d->id, outer_def.id, cs_sg_cluster_router(c), cs_sg_cluster_router(o));
  }
  g_string_append(x, "</zone>\n</platform>\n");
  char *dir = g_dir_make_tmp("check-sgc-XXXXXX", NULL);
  ck_assert_ptr_nonnull(dir);
  char *path = g_build_filename(dir, "platform.xml", NULL);
  ck_assert(g_file_set_contents(path, x->str, -1, NULL));
  g_string_free(x, TRUE);
  g_free(dir);
  return path;
}

static void remove_platform(char *path)
{
  char *dir = g_path_get_dirname(path);
  g_unlink(path);
  g_rmdir(dir);
  g_free(dir);
  g_free(path);
}

static void load_in_simgrid(const char *path)
{
  int argc = 2;
  char *argv[] = {"sg_cluster", "--log=root.thres:critical", NULL};
  simgrid_init(&argc, argv);
  simgrid_load_platform(path);
}

/* ---- expected routes: links of one cluster or the zoneRoute's link ---- */

typedef struct hop {
  const cs_sg_cluster *c; /* NULL: the link "inter" */
  int64_t id;
} hop;

static void append_route(GArray *route, const cs_sg_cluster *c, int64_t a, int64_t b)
{
  int32_t links[4096];
  int n = cs_sg_cluster_route(c, a, b, links, 4096);
  ck_assert_int_ge(n, 0);
  ck_assert_int_le(n, 4096);
  for (int i = 0; i < n; i++)
    g_array_append_val(route, ((hop){c, links[i]}));
}

static void append_inter(GArray *route) { g_array_append_val(route, ((hop){NULL, 0})); }

static char *hop_name(const hop *h)
{
  if (!h->c)
    return g_strdup("inter");
  GString *s = g_string_new(NULL);
  cs_sg_cluster_link_name(h->c, h->id, s);
  return g_string_free(s, FALSE);
}

static double hop_bandwidth(const hop *h) { return h->c ? cs_sg_cluster_link_bandwidth(h->c, h->id) : INTER_BW; }
static double hop_latency(const hop *h) { return h->c ? cs_sg_cluster_link_latency(h->c, h->id) : INTER_LAT; }

static char *describe(const GArray *route)
{
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < route->len; i++) {
    char *n = hop_name(&g_array_index(route, hop, i));
    g_string_append_printf(s, "%s%s", i ? " " : "", n);
    g_free(n);
  }
  return g_string_free(s, FALSE);
}

static char *describe_sg(xbt_dynar_t links)
{
  GString *s = g_string_new(NULL);
  for (unsigned long i = 0; i < xbt_dynar_length(links); i++)
    g_string_append_printf(s, "%s%s", i ? " " : "", sg_link_get_name(xbt_dynar_get_as(links, i, sg_link_t)));
  return g_string_free(s, FALSE);
}

static sg_host_t host_of(const cs_sg_cluster *c, int64_t i)
{
  GString *name = g_string_new(NULL);
  cs_sg_cluster_host_name(c, i, name);
  sg_host_t h = sg_host_by_name(name->str);
  ck_assert_msg(h, "SimGrid has no host %s", name->str);
  g_string_free(name, TRUE);
  return h;
}

/* SimGrid's route from `from` to `to` equals `route`, link for link. */
static void expect_route(sg_host_t from, sg_host_t to, const GArray *route)
{
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  sg_host_get_route(from, to, links);
  char *want = describe(route), *got = describe_sg(links);
  ck_assert_msg(strcmp(want, got) == 0, "%s -> %s: emulated [%s], SimGrid [%s]", sg_host_get_name(from),
                sg_host_get_name(to), want, got);
  for (guint i = 0; i < route->len; i++) {
    const hop *h = &g_array_index(route, hop, i);
    sg_link_t l = xbt_dynar_get_as(links, i, sg_link_t);
    ck_assert_msg(sg_link_get_bandwidth(l) == hop_bandwidth(h) && sg_link_get_latency(l) == hop_latency(h),
                  "%s: bandwidth %g latency %g, emulated %g %g", sg_link_get_name(l), sg_link_get_bandwidth(l),
                  sg_link_get_latency(l), hop_bandwidth(h), hop_latency(h));
  }
  g_free(want);
  g_free(got);
  xbt_dynar_free(&links);
}

/* ---- the checks ---- */

/* SimGrid's links by name. */
static GHashTable *simgrid_links(void)
{
  GHashTable *t = g_hash_table_new(g_str_hash, g_str_equal);
  sg_link_t *all = sg_link_list();
  for (size_t i = 0; i < sg_link_count(); i++)
    g_hash_table_insert(t, (gpointer)sg_link_get_name(all[i]), all[i]);
  free(all);
  return t;
}

/* Every link the emulation names exists in SimGrid with its bandwidth and
 * latency, no name twice; returns the count. */
static int64_t check_links_of(const cs_sg_cluster *c, GHashTable *seen)
{
  GHashTable *sg = simgrid_links();
  for (int64_t id = 0; id < cs_sg_cluster_nlinks(c); id++) {
    GString *name = g_string_new(NULL);
    cs_sg_cluster_link_name(c, id, name);
    ck_assert_msg(!g_hash_table_contains(seen, name->str), "link name %s twice", name->str);
    sg_link_t l = g_hash_table_lookup(sg, name->str);
    ck_assert_msg(l, "SimGrid has no link %s", name->str);
    ck_assert_msg(sg_link_get_bandwidth(l) == cs_sg_cluster_link_bandwidth(c, id), "%s: bandwidth %g, emulated %g",
                  name->str, sg_link_get_bandwidth(l), cs_sg_cluster_link_bandwidth(c, id));
    ck_assert_msg(sg_link_get_latency(l) == cs_sg_cluster_link_latency(c, id), "%s: latency %g, emulated %g",
                  name->str, sg_link_get_latency(l), cs_sg_cluster_link_latency(c, id));
    g_hash_table_add(seen, g_string_free(name, FALSE));
  }
  g_hash_table_destroy(sg);
  return cs_sg_cluster_nlinks(c);
}

static void check_links(const cs_sg_cluster *c, const cs_sg_cluster *o)
{
  GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  int64_t n = check_links_of(c, seen) + (o ? check_links_of(o, seen) + 1 : 0);
  ck_assert_int_eq((int64_t)sg_link_count(), n + 1); /* + SimGrid's __loopback__ */
  g_hash_table_destroy(seen);
}

static void check_host_pairs(const cs_sg_cluster *c)
{
  GArray *route = g_array_new(FALSE, FALSE, sizeof(hop));
  for (int64_t a = 0; a < cs_sg_cluster_hosts(c); a++) {
    for (int64_t b = 0; b < cs_sg_cluster_hosts(c); b++) {
      g_array_set_size(route, 0);
      append_route(route, c, a, b);
      expect_route(host_of(c, a), host_of(c, b), route);
    }
  }
  g_array_free(route, TRUE);
}

/* Host i of c to o's host and back, through both routers. */
static void check_router_routes(const cs_sg_cluster *c, const cs_sg_cluster *o)
{
  GArray *route = g_array_new(FALSE, FALSE, sizeof(hop));
  for (int64_t i = 0; i < cs_sg_cluster_hosts(c); i++) {
    g_array_set_size(route, 0);
    append_route(route, c, i, CS_SGC_ROUTER);
    append_inter(route);
    append_route(route, o, CS_SGC_ROUTER, 0);
    expect_route(host_of(c, i), host_of(o, 0), route);
    g_array_set_size(route, 0);
    append_route(route, o, 0, CS_SGC_ROUTER);
    append_inter(route);
    append_route(route, c, CS_SGC_ROUTER, i);
    expect_route(host_of(o, 0), host_of(c, i), route);
  }
  g_array_free(route, TRUE);
}

START_TEST(test_routes_equal_simgrids)
{
  const cluster_def *d = &cases[_i];
  cs_sg_cluster *c = build_ok(d);
  cs_sg_cluster *o = d->outer ? build_ok(&outer_def) : NULL;
  char *path = write_platform(d, c, o);
  load_in_simgrid(path);
  ck_assert_int_eq((int64_t)sg_host_count(), cs_sg_cluster_hosts(c) + (o ? cs_sg_cluster_hosts(o) : 0));
  check_links(c, o);
  check_host_pairs(c);
  if (o)
    check_router_routes(c, o);
  remove_platform(path);
  cs_sg_cluster_free(c);
  cs_sg_cluster_free(o);
}
END_TEST

/* ---- without SimGrid ---- */

static int netmap_route(const cs_netmap *m, int64_t a, int64_t b, int32_t *links)
{
  return m->ops->route(m, a, b, links, 64);
}

START_TEST(test_netmap_internal_loopback_only_where_needed)
{
  /* torus without loopback or limiter: a host's route to itself is empty
   * in SimGrid's zone; the netmap adds SimGrid's __loopback__ */
  cs_netmap *m = cs_sg_cluster_netmap(build_ok(&cases[7]));
  int32_t links[64];
  ck_assert_int_eq(m->nlinks, 12 * 3 * 2 + 1);
  ck_assert_int_eq(netmap_route(m, 5, 5, links), 1);
  ck_assert_int_eq(links[0], m->nlinks - 1);
  char *name = cs_netmap_link_name(m, links[0]);
  ck_assert_str_eq(name, "__loopback__");
  g_free(name);
  ck_assert(cs_netmap_link_internal(m, links[0]));
  ck_assert_str_eq(cs_netmap_link_tier(m, links[0]), "intra");
  ck_assert_int_eq(netmap_route(m, 0, 1, links), 1);
  ck_assert(!cs_netmap_link_internal(m, links[0]));
  ck_assert_str_eq(cs_netmap_link_tier(m, links[0]), "X");
  ck_assert_int_eq(netmap_route(m, 0, 12, links), -1);
  cs_netmap_free(m);

  /* torus with loopback, and a flat cluster (which goes up and down its own link): no extra link */
  static const int which[] = {6, 0};
  for (size_t k = 0; k < G_N_ELEMENTS(which); k++) {
    cs_sg_cluster *c = build_ok(&cases[which[k]]);
    int64_t nlinks = cs_sg_cluster_nlinks(c);
    m = cs_sg_cluster_netmap(c);
    ck_assert_int_eq(m->nlinks, nlinks);
    ck_assert_int_gt(netmap_route(m, 1, 1, links), 0);
    for (int64_t id = 0; id < m->nlinks; id++)
      ck_assert(!cs_netmap_link_internal(m, id));
    cs_netmap_free(m);
  }
}
END_TEST

START_TEST(test_tiers_and_hierarchy)
{
  const char *names[CS_NETMAP_MAX_TIERS];
  cs_sg_cluster *c = build_ok(&cases[2]); /* flat, backbone, limiter, loopback */
  ck_assert_int_eq(cs_sg_cluster_tiers(c, names, CS_NETMAP_MAX_TIERS), 4);
  ck_assert_str_eq(names[0], "cluster");
  ck_assert_str_eq(names[1], "backbone");
  ck_assert_str_eq(names[2], "limiter");
  ck_assert_str_eq(names[3], "intra");
  ck_assert_str_eq(cs_sg_cluster_router(c), "c-cl_router.me");
  cs_hierarchy h;
  cs_sg_cluster_hierarchy(c, 2, &h);
  char *s = cs_hier_describe(&h);
  ck_assert_str_eq(s, "node:7 > core:2");
  g_free(s);
  cs_sg_cluster_free(c);

  c = build_ok(&cases[11]); /* torus 3x3x3 with loopback */
  ck_assert_int_eq(cs_sg_cluster_tiers(c, names, CS_NETMAP_MAX_TIERS), 4);
  ck_assert_str_eq(names[0], "X");
  ck_assert_str_eq(names[2], "Z");
  ck_assert_str_eq(names[3], "intra");
  ck_assert_ptr_null(cs_sg_cluster_router(c));
  cs_sg_cluster_hierarchy(c, 4, &h);
  s = cs_hier_describe(&h);
  ck_assert_str_eq(s, "Z:3 > Y:3 > node:3 > core:4"); /* entities per entity of the level above */
  g_free(s);
  ck_assert_int_eq(h.level[1].count, 9);
  ck_assert_int_eq(h.level[h.node_level].count, 27);
  ck_assert_str_eq(h.level[h.node_level].tier, "X");
  ck_assert_str_eq(h.level[0].tier, "Z");
  ck_assert_int_eq(cs_hier_node_index(&h, 3 + 9 * 2, 0), 2); /* node (0,1,2) is in Z plane 2 */
  ck_assert_int_eq(cs_hier_node_index(&h, 3 + 9 * 2, 1), 7); /* and in Y row 7 = 1 + 3*2 */
  GString *g = g_string_new(NULL), *src = g_string_new(NULL), *dst = g_string_new(NULL);
  int32_t links[8];
  ck_assert_int_eq(cs_sg_cluster_route(c, 2, 0, links, 8), 1); /* 2 -> 0 forward: node 2's link, wrapping */
  cs_sg_cluster_link_name(c, links[0], g);
  ck_assert_str_eq(g->str, "t3_link_from_2_to_0_UP");
  ck_assert(cs_sg_cluster_link_ends(c, links[0], src, dst));
  ck_assert_str_eq(src->str, "node-2");
  ck_assert_str_eq(dst->str, "node-0");
  ck_assert_str_eq(cs_sg_cluster_link_tier(c, links[0]), "X");
  g_string_free(g, TRUE);
  g_string_free(src, TRUE);
  g_string_free(dst, TRUE);
  cs_sg_cluster_free(c);
}
END_TEST

START_TEST(test_refused_parameters)
{
  static const struct {
    const char *topology, *parameters, *radical, *message;
  } bad[] = {
      {"TORUS", "4,x", "0-7", "TORUS topo_parameters '4,x'"},
      {"TORUS", "", "0-7", "TORUS topo_parameters ''"},
      {"TORUS", "4,0", "0-7", "TORUS topo_parameters '4,0'"},
      {"TORUS", "3,3", "0-7", "needs more hosts"},
      {"RING", NULL, "0-7", "unknown topology 'RING'"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    cluster_def d = {.id = "c", .prefix = "", .suffix = "", .radical = bad[i].radical, .topology = bad[i].topology,
                     .topo_parameters = bad[i].parameters, .bw = 1e9, .lat = 1e-6};
    GError *err = NULL;
    ck_assert_ptr_null(build(&d, &err));
    ck_assert_msg(err && strstr(err->message, bad[i].message), "%s: %s", bad[i].message, err ? err->message : "");
    g_error_free(err);
  }
  /* SimGrid's create_torus_zone refuses bw 0 */
  cluster_def d = {.id = "c", .prefix = "", .suffix = "", .radical = "0-9", .topology = "TORUS",
                   .topo_parameters = "2,4", .bw = 0, .lat = 1e-6};
  GError *err = NULL;
  ck_assert_ptr_null(build(&d, &err));
  ck_assert(strstr(err->message, "bw > 0"));
  g_error_free(err);
  /* more radicals than torus nodes: SimGrid creates the first ones only */
  d.bw = 1e9;
  cs_sg_cluster *c = build_ok(&d);
  ck_assert_int_eq(cs_sg_cluster_hosts(c), 8);
  cs_sg_cluster_free(c);
}
END_TEST

/* The ends of a route's links chain from a to b: each link that moves
 * (its ends differ) leaves where the previous one arrived; a SHARED or
 * FATPIPE link may be crossed against its direction. */
static void expect_chain(const cs_sg_cluster *c, bool shared, int64_t a, int64_t b)
{
  int32_t links[4096];
  int n = cs_sg_cluster_route(c, a, b, links, 4096);
  GString *at = g_string_new(NULL), *want = g_string_new(NULL), *src = g_string_new(NULL), *dst = g_string_new(NULL);
  cs_sg_cluster_host_name(c, a, at);
  cs_sg_cluster_host_name(c, b, want);
  for (int i = 0; i < n; i++) {
    g_string_truncate(src, 0);
    g_string_truncate(dst, 0);
    ck_assert(cs_sg_cluster_link_ends(c, links[i], src, dst));
    if (strcmp(src->str, dst->str) == 0)
      continue;
    if (shared && strcmp(dst->str, at->str) == 0) {
      g_string_assign(at, src->str);
      continue;
    }
    ck_assert_msg(strcmp(src->str, at->str) == 0, "hop %d leaves %s, not %s", i, src->str,
                  at->str);
    g_string_assign(at, dst->str);
  }
  ck_assert_msg(strcmp(at->str, want->str) == 0, "route ends at %s, not %s", at->str, want->str);
  g_string_free(at, TRUE);
  g_string_free(want, TRUE);
  g_string_free(src, TRUE);
  g_string_free(dst, TRUE);
}

START_TEST(test_link_ends_chain)
{
  /* (a host's route to itself over one shared link names the link once) */
  cs_sg_cluster *c = build_ok(&cases[_i]);
  bool shared = cases[_i].sharing && strcmp(cases[_i].sharing, "SPLITDUPLEX") != 0;
  for (int64_t a = 0; a < cs_sg_cluster_hosts(c); a++)
    for (int64_t b = 0; b < cs_sg_cluster_hosts(c); b++)
      if (a != b || !shared)
        expect_chain(c, shared, a, b);
  cs_sg_cluster_free(c);
}
END_TEST

static Suite *sg_cluster_suite(void)
{
  Suite *s = suite_create("sg_cluster");
  TCase *tc = tcase_create("simgrid");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_routes_equal_simgrids, 0, G_N_ELEMENTS(cases));
  suite_add_tcase(s, tc);
  tc = tcase_create("alone");
  tcase_add_test(tc, test_netmap_internal_loopback_only_where_needed);
  tcase_add_test(tc, test_tiers_and_hierarchy);
  tcase_add_test(tc, test_refused_parameters);
  tcase_add_loop_test(tc, test_link_ends_chain, 0, G_N_ELEMENTS(cases));
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(sg_cluster_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
