/* Tests of collsim's emulation of SimGrid's FAT_TREE and DRAGONFLY cluster
 * zones (platforms/sg_cluster_fattree.c, sg_cluster_dragonfly.c) against
 * SimGrid 3.32 itself, and of the fattree platform family
 * (platforms/fattree.c).  Check runs each test, and each iteration of a
 * loop test, in a forked child: one SimGrid platform per process.
 *  - for each cluster below (k-ary trees, non-k-ary and parallel-cable fat
 *    trees, SimGrid's own examples, smaller dragonflies; with and without
 *    loopback and limiter links, SPLITDUPLEX, SHARED, FATPIPE): every
 *    ordered pair of hosts routes over exactly sg_host_get_route's links,
 *    by name and in order, each with SimGrid's bandwidth and latency; the
 *    cluster's links are exactly SimGrid's (names, count, bandwidth,
 *    latency); on split-duplex fat trees each route's links chain from
 *    its source to its destination;
 *  - the family's examples (and fattree:3,2): the netmap of the written
 *    XML against SimGrid, every ordered pair;
 *  - parameters SimGrid refuses or mishandles are refused;
 *  - tiers, link ends and hierarchies;
 *  - fattree:16,4 (65,536 nodes): netmap and a million routes, timed. */
#include "platforms/platform.h"
#include "platforms/sg_cluster.h"

#include <check.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BW 1.25e8
#define LAT 5e-5

typedef struct sgc_case {
  const char *topology, *topo;
  int64_t hosts, first;   /* radical first .. first + hosts - 1 */
  const char *policy;     /* NULL: attribute absent */
  double loopback_bw;     /* NAN: no loopback attributes */
  double limiter;         /* NAN: no limiter */
  bool in_zone;           /* inside <zone id="world" routing="Full"> */
} sgc_case;

static const sgc_case cases[] = {
    /* k-ary L-trees */
    {"FAT_TREE", "2;2,2;1,2;1,1", 4, 0, "SPLITDUPLEX", 2e9, NAN, false},
    {"FAT_TREE", "2;4,4;1,4;1,1", 16, 0, "SPLITDUPLEX", 2e9, NAN, false},
    {"FAT_TREE", "3;2,2,2;1,2,2;1,1,1", 8, 0, "SPLITDUPLEX", 2e9, NAN, false},
    {"FAT_TREE", "2;3,3;1,3;1,1", 9, 0, NULL, NAN, NAN, false},
    /* SimGrid's examples/platforms/cluster_fat_tree.xml, plus a limiter */
    {"FAT_TREE", "2;4,4;1,2;1,2", 16, 0, NULL, 1e8, NAN, true},
    {"FAT_TREE", "2;4,4;1,2;1,2", 16, 100, "SPLITDUPLEX", 1e8, 1.5e8, true},
    /* parallel cables at every level, parents above hosts, uneven radices */
    {"FAT_TREE", "2;2,3;2,2;2,3", 6, 0, "SPLITDUPLEX", NAN, NAN, false},
    {"FAT_TREE", "3;2,3,2;2,2,3;1,2,2", 12, 5, "SPLITDUPLEX", 1e9, NAN, false},
    {"FAT_TREE", "2;3,4;2,2;2,3", 12, 0, "SPLITDUPLEX", NAN, 2e8, false},
    {"FAT_TREE", "2;2,2;1,2;1,1", 4, 0, "SHARED", NAN, NAN, false},
    {"FAT_TREE", "3;2,2,2;1,2,2;2,1,2", 8, 0, "FATPIPE", 1e9, NAN, true},
    /* a radical longer than the tree: SimGrid creates the first hosts only */
    {"FAT_TREE", "2;2,2;1,2;1,1", 7, 3, "SPLITDUPLEX", 2e9, 1e9, false},
    /* SimGrid's examples/platforms/cluster_dragonfly.xml (120 hosts) */
    {"DRAGONFLY", "3,4;4,3;5,1;2", 120, 0, NULL, 1e8, 1.5e8, true},
    {"DRAGONFLY", "3,4;3,2;3,1;2", 54, 0, "SPLITDUPLEX", 1e8, NAN, false},
    {"DRAGONFLY", "2,1;2,1;2,1;1", 8, 0, "SPLITDUPLEX", NAN, NAN, false},
    {"DRAGONFLY", "2,2;3,2;2,3;2", 24, 7, "SPLITDUPLEX", NAN, 3e8, false},
    {"DRAGONFLY", "1,1;3,1;2,1;2", 12, 0, "SPLITDUPLEX", 1e9, NAN, false},
    {"DRAGONFLY", "2,1;1,1;3,2;1", 6, 0, "SHARED", 1e9, NAN, false},
    {"DRAGONFLY", "4,1;2,2;4,1;1", 32, 0, "FATPIPE", NAN, NAN, true},
    {"DRAGONFLY", "2,1;2,1;2,1;1", 11, 0, "SPLITDUPLEX", 1e9, 2e8, false},
};

/* ---- writing a case ---- */

static void write_case(const sgc_case *k, const char *path)
{
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<platform version=\"4.1\">\n");
  if (k->in_zone)
    fprintf(f, "<zone id=\"world\" routing=\"Full\">\n");
  fprintf(f, "<cluster id=\"bob\" prefix=\"node-\" suffix=\".x\" radical=\"%lld-%lld\" speed=\"1Gf\" "
             "bw=\"%.17gBps\" lat=\"%.17gs\" topology=\"%s\" topo_parameters=\"%s\"",
          (long long)k->first, (long long)(k->first + k->hosts - 1), BW, LAT, k->topology, k->topo);
  if (k->policy)
    fprintf(f, " sharing_policy=\"%s\"", k->policy);
  if (!isnan(k->loopback_bw))
    fprintf(f, " loopback_bw=\"%.17gBps\" loopback_lat=\"0s\"", k->loopback_bw);
  if (!isnan(k->limiter))
    fprintf(f, " limiter_link=\"%.17gBps\"", k->limiter);
  fprintf(f, "/>\n%s</platform>\n", k->in_zone ? "</zone>\n" : "");
  ck_assert_int_eq(fclose(f), 0);
}

static cs_sg_cluster *cluster_of(const sgc_case *k, GError **err)
{
  int64_t *radical = g_new(int64_t, k->hosts);
  for (int64_t i = 0; i < k->hosts; i++)
    radical[i] = k->first + i;
  cs_sgc_params p = {.id = "bob", .prefix = "node-", .suffix = ".x", .radical = radical, .nhosts = k->hosts,
                     .topology = k->topology, .topo_parameters = k->topo, .bw = BW, .lat = LAT,
                     .sharing_policy = k->policy, .loopback_bw = k->loopback_bw,
                     .loopback_lat = isnan(k->loopback_bw) ? NAN : 0.0, .limiter_link = k->limiter,
                     .bb_bw = NAN, .bb_lat = NAN};
  cs_sg_cluster *c = cs_sg_cluster_new(&p, err);
  g_free(radical);
  return c;
}

static void load_simgrid(const char *path)
{
  int argc = 2;
  char *argv[] = {"sg_cluster_ft_df", "--log=root.thres:critical", NULL};
  simgrid_init(&argc, argv);
  simgrid_load_platform(path);
}

static char *tmp_xml(char **dir)
{
  *dir = g_dir_make_tmp("check-ftdf-XXXXXX", NULL);
  ck_assert_ptr_nonnull(*dir);
  return g_build_filename(*dir, "platform.xml", NULL);
}

static void remove_tmp(char *dir, char *path)
{
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
}

/* ---- comparing with SimGrid ---- */

/* A route as "name name ..." for messages. */
static char *sg_route_text(xbt_dynar_t d)
{
  GString *s = g_string_new(NULL);
  for (unsigned i = 0; i < xbt_dynar_length(d); i++)
    g_string_append_printf(s, "%s%s", i ? " " : "", sg_link_get_name(xbt_dynar_get_as(d, i, sg_link_t)));
  return g_string_free(s, FALSE);
}

typedef struct emulated {
  int (*route)(const void *m, int64_t a, int64_t b, int32_t *links, int cap);
  void (*name)(const void *m, int64_t id, GString *out);
  double (*bw)(const void *m, int64_t id);
  double (*lat)(const void *m, int64_t id);
  const void *m;
} emulated;

static char *our_route_text(const emulated *e, const int32_t *links, int n)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < n; i++) {
    if (i)
      g_string_append_c(s, ' ');
    e->name(e->m, links[i], s);
  }
  return g_string_free(s, FALSE);
}

/* The route from host a to host b matches SimGrid's, link by link. */
static void check_pair(const emulated *e, sg_host_t ha, sg_host_t hb, int64_t a, int64_t b, xbt_dynar_t d)
{
  int32_t links[CS_NETMAP_MAX_HOPS];
  xbt_dynar_reset(d);
  sg_host_get_route(ha, hb, d);
  int n = e->route(e->m, a, b, links, CS_NETMAP_MAX_HOPS);
  bool same = n == (int)xbt_dynar_length(d);
  GString *name = g_string_new(NULL);
  for (int i = 0; same && i < n; i++) {
    sg_link_t l = xbt_dynar_get_as(d, i, sg_link_t);
    g_string_truncate(name, 0);
    e->name(e->m, links[i], name);
    same = strcmp(name->str, sg_link_get_name(l)) == 0 && e->bw(e->m, links[i]) == sg_link_get_bandwidth(l) &&
           e->lat(e->m, links[i]) == sg_link_get_latency(l);
  }
  g_string_free(name, TRUE);
  if (!same) {
    char *ours = our_route_text(e, links, n), *theirs = sg_route_text(d);
    ck_abort_msg("%s -> %s: ours [%s], SimGrid's [%s] (or a bandwidth/latency differs)", sg_host_get_name(ha),
                 sg_host_get_name(hb), ours, theirs);
  }
}

static void check_all_pairs(const emulated *e, sg_host_t *hosts, int64_t n)
{
  xbt_dynar_t d = xbt_dynar_new(sizeof(sg_link_t), NULL);
  for (int64_t a = 0; a < n; a++)
    for (int64_t b = 0; b < n; b++)
      check_pair(e, hosts[a], hosts[b], a, b, d);
  xbt_dynar_free(&d);
}

/* emulated over a cluster */
static int c_route(const void *m, int64_t a, int64_t b, int32_t *l, int cap) { return cs_sg_cluster_route(m, a, b, l, cap); }
static void c_name(const void *m, int64_t id, GString *out) { cs_sg_cluster_link_name(m, id, out); }
static double c_bw(const void *m, int64_t id) { return cs_sg_cluster_link_bandwidth(m, id); }
static double c_lat(const void *m, int64_t id) { return cs_sg_cluster_link_latency(m, id); }

/* emulated over a netmap */
static int m_route(const void *m, int64_t a, int64_t b, int32_t *l, int cap)
{
  const cs_netmap *nm = m;
  return nm->ops->route(nm, a, b, l, cap);
}
static void m_name(const void *m, int64_t id, GString *out)
{
  const cs_netmap *nm = m;
  nm->ops->link_name(nm, id, out);
}
static double m_bw(const void *m, int64_t id)
{
  const cs_netmap *nm = m;
  return nm->ops->link_bandwidth(nm, id);
}
static double m_lat(const void *m, int64_t id)
{
  const cs_netmap *nm = m;
  return nm->ops->link_latency(nm, id);
}

/* The cluster's links are exactly SimGrid's (bar its internal __loopback__). */
static void check_link_set(const cs_sg_cluster *c)
{
  int64_t n = cs_sg_cluster_nlinks(c);
  size_t sg_count = sg_link_count();
  sg_link_t *all = sg_link_list();
  size_t sg_named = 0;
  for (size_t i = 0; i < sg_count; i++)
    sg_named += strcmp(sg_link_get_name(all[i]), "__loopback__") != 0;
  free(all);
  ck_assert_msg((int64_t)sg_named == n, "SimGrid has %zu links, we have %lld", sg_named, (long long)n);
  GString *name = g_string_new(NULL);
  GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int64_t id = 0; id < n; id++) {
    g_string_truncate(name, 0);
    cs_sg_cluster_link_name(c, id, name);
    sg_link_t l = sg_link_by_name(name->str);
    ck_assert_msg(l != NULL, "link %s: not in SimGrid's platform", name->str);
    ck_assert_msg(g_hash_table_add(seen, g_strdup(name->str)), "link %s named twice", name->str);
    ck_assert_msg(cs_sg_cluster_link_bandwidth(c, id) == sg_link_get_bandwidth(l) &&
                      cs_sg_cluster_link_latency(c, id) == sg_link_get_latency(l),
                  "link %s: bandwidth %g latency %g, SimGrid's %g %g", name->str, cs_sg_cluster_link_bandwidth(c, id),
                  cs_sg_cluster_link_latency(c, id), sg_link_get_bandwidth(l), sg_link_get_latency(l));
  }
  g_hash_table_destroy(seen);
  g_string_free(name, TRUE);
}

static sg_host_t *hosts_of(const cs_sg_cluster *c)
{
  int64_t n = cs_sg_cluster_hosts(c);
  sg_host_t *h = g_new(sg_host_t, n);
  GString *name = g_string_new(NULL);
  for (int64_t i = 0; i < n; i++) {
    g_string_truncate(name, 0);
    cs_sg_cluster_host_name(c, i, name);
    h[i] = sg_host_by_name(name->str);
    ck_assert_msg(h[i] != NULL, "host %s: not in SimGrid's platform", name->str);
  }
  ck_assert_int_eq((int64_t)sg_host_count(), n);
  g_string_free(name, TRUE);
  return h;
}

/* Each link of a fat tree's route starts where the previous one ended
 * (the ends are SimGrid's wiring: a swapped UP/DOWN or a wrong parent
 * breaks the chain; limiters and loopbacks stay in place).  Not on dragonflies: SimGrid's minimal routing itself
 * jumps (after a green hop inside a group it continues from chassis 0). */
static void check_chains(const cs_sg_cluster *c)
{
  int64_t n = cs_sg_cluster_hosts(c);
  int32_t links[CS_NETMAP_MAX_HOPS];
  GString *at = g_string_new(NULL), *src = g_string_new(NULL), *dst = g_string_new(NULL);
  for (int64_t a = 0; a < n; a++)
    for (int64_t b = 0; b < n; b++) {
      int len = cs_sg_cluster_route(c, a, b, links, CS_NETMAP_MAX_HOPS);
      g_string_truncate(at, 0);
      cs_sg_cluster_host_name(c, a, at);
      for (int i = 0; i < len; i++) {
        g_string_truncate(src, 0);
        g_string_truncate(dst, 0);
        ck_assert(cs_sg_cluster_link_ends(c, links[i], src, dst));
        if (strcmp(src->str, dst->str) == 0)
          continue; /* a loopback or a limiter (SimGrid puts a switch's after its down cable) */
        if (strcmp(src->str, at->str) != 0)
          ck_abort_msg("route %lld -> %lld: link %d leaves %s, not %s", (long long)a, (long long)b, i, src->str,
                       at->str);
        g_string_assign(at, dst->str);
      }
      g_string_truncate(dst, 0);
      cs_sg_cluster_host_name(c, b, dst);
      ck_assert_str_eq(at->str, dst->str);
    }
  g_string_free(at, TRUE);
  g_string_free(src, TRUE);
  g_string_free(dst, TRUE);
}

START_TEST(test_cluster_routes_equal_simgrid)
{
  const sgc_case *k = &cases[_i];
  GError *err = NULL;
  cs_sg_cluster *c = cluster_of(k, &err);
  ck_assert_msg(c != NULL, "%s %s: %s", k->topology, k->topo, err ? err->message : "?");
  char *dir, *path = tmp_xml(&dir);
  write_case(k, path);
  load_simgrid(path);
  sg_host_t *hosts = hosts_of(c);
  check_link_set(c);
  emulated e = {c_route, c_name, c_bw, c_lat, c};
  check_all_pairs(&e, hosts, cs_sg_cluster_hosts(c));
  if (strcmp(k->topology, "FAT_TREE") == 0 && k->policy && strcmp(k->policy, "SPLITDUPLEX") == 0)
    check_chains(c);
  g_free(hosts);
  cs_sg_cluster_free(c);
  remove_tmp(dir, path);
}
END_TEST

/* ---- the family ---- */

static const char *const family_specs[] = {"fattree:2,2", "fattree:4,2/2", "fattree:2,3/2", "fattree:3,2",
                                           "fattree:2,1/1,bw=1GBps,lat=1us,loopback=3GBps,loopback_lat=0s"};

START_TEST(test_family_netmap_equals_simgrid)
{
  const char *spec = family_specs[_i];
  GError *err = NULL;
  cs_platform *p = cs_platform_parse(spec, &err);
  ck_assert_msg(p && cs_platform_resolve(p, cs_platform_slots(p), &err), "%s: %s", spec, err ? err->message : "?");
  cs_netmap *m = cs_platform_netmap(p, &err);
  ck_assert_msg(m != NULL, "%s: %s", spec, err ? err->message : "?");
  char *dir, *path = tmp_xml(&dir);
  ck_assert_msg(cs_platform_write_file(p, path, &err), "%s", err ? err->message : "?");
  load_simgrid(path);
  sg_host_t *hosts = g_new(sg_host_t, p->nodes);
  for (int64_t i = 0; i < p->nodes; i++) {
    char *name = g_strdup_printf("node-%lld", (long long)i);
    hosts[i] = sg_host_by_name(name);
    ck_assert_msg(hosts[i] != NULL, "%s: no host %s", spec, name);
    g_free(name);
  }
  emulated e = {m_route, m_name, m_bw, m_lat, m};
  check_all_pairs(&e, hosts, p->nodes);
  g_free(hosts);
  cs_netmap_free(m);
  cs_platform_free(p);
  remove_tmp(dir, path);
}
END_TEST

START_TEST(test_family_spec_reads_back)
{
  static const char *const specs[][2] = {
      {"fattree:4,3", "fattree:4,3"},
      {"fattree:4,3/1", "fattree:4,3"},
      {"fattree:2,2/4,bw=10GBps", "fattree:2,2/4,bw=10GBps"},
      {"fattree:2,2/cores=2,loopback_lat=0s", "fattree:2,2/2,loopback_lat=0s"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    GError *err = NULL;
    cs_platform *p = cs_platform_parse(specs[i][0], &err);
    ck_assert_msg(p != NULL, "%s: %s", specs[i][0], err ? err->message : "?");
    char *d = cs_platform_describe(p);
    ck_assert_str_eq(d, specs[i][1]);
    cs_platform *q = cs_platform_parse(d, &err);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(q->nodes, p->nodes);
    ck_assert_int_eq(q->cores, p->cores);
    g_free(d);
    cs_platform_free(q);
    cs_platform_free(p);
  }
}
END_TEST

START_TEST(test_family_hierarchy)
{
  static const char *const want[][2] = {
      {"fattree:4,3/2", "pod-2:4 > pod-1:4 > node:4 > core:2"},
      {"fattree:2,1", "node:2 > core:1"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    cs_platform *p = cs_platform_parse(want[i][0], NULL);
    ck_assert_ptr_nonnull(p);
    cs_hierarchy h;
    cs_platform_hierarchy(p, &h);
    char *d = cs_hier_describe(&h);
    ck_assert_str_eq(d, want[i][1]);
    ck_assert_str_eq(h.level[h.node_level].tier, "S1");
    g_free(d);
    cs_platform_free(p);
  }
}
END_TEST

START_TEST(test_family_refuses_bad_specs)
{
  static const char *const bad[] = {"fattree:1,2",    "fattree:2",        "fattree:2,2,2",  "fattree:2,0",
                                    "fattree:2,17",   "fattree:64,5",     "fattree:2,2/0",  "fattree:2,2/x=1",
                                    "fattree:2,2/bw=0", "fattree:2,2/lat=-1s", "fattree:a,2"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    GError *err = NULL;
    cs_platform *p = cs_platform_parse(bad[i], &err);
    ck_assert_msg(p == NULL, "%s accepted", bad[i]);
    ck_assert_msg(err && strstr(err->message, "fattree"), "%s: %s", bad[i], err ? err->message : "no error");
    g_error_free(err);
  }
}
END_TEST

/* ---- refusals ---- */

START_TEST(test_refused_parameters)
{
  static const sgc_case bad[] = {
      {"FAT_TREE", "2;2,2;1,2", 4, 0, NULL, NAN, NAN, false},         /* three parts */
      {"FAT_TREE", "2;2,2,2;1,2;1,1", 4, 0, NULL, NAN, NAN, false},   /* vector length */
      {"FAT_TREE", "2;2,2;1,0;1,1", 4, 0, NULL, NAN, NAN, false},     /* zero */
      {"FAT_TREE", "2;2,2;1,2;1,1", 3, 0, NULL, NAN, NAN, false},     /* too few hosts */
      {"FAT_TREE", "3;2,2,2;1,2,2;1,1,1", 8, 0, NULL, NAN, 1e8, false}, /* switch limiter named like a host's */
      {"DRAGONFLY", "3,1;1,1;2,1;1", 6, 0, NULL, NAN, NAN, false},     /* more groups than routers */
      {"DRAGONFLY", "2,1;2,1;2;1", 8, 0, NULL, NAN, NAN, false},       /* routers without links */
      {"DRAGONFLY", "2,1;2,1;2,1", 8, 0, NULL, NAN, NAN, false},       /* three parts */
      {"DRAGONFLY", "2,1;2,1;2,1;1", 7, 0, NULL, NAN, NAN, false},     /* too few hosts */
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    GError *err = NULL;
    cs_sg_cluster *c = cluster_of(&bad[i], &err);
    ck_assert_msg(c == NULL, "%s %s accepted", bad[i].topology, bad[i].topo);
    ck_assert_msg(err && strstr(err->message, "bob"), "%s: %s", bad[i].topo, err ? err->message : "no error");
    g_error_free(err);
  }
}
END_TEST

/* The refusal of a fat tree whose switch limiters would be named like a
 * host's is SimGrid's own: it aborts on that file ("Link 'bob_link_7_limiter'
 * declared several times"). */
START_TEST(test_simgrid_aborts_on_switch_limiter_clash)
{
  sgc_case k = {"FAT_TREE", "3;2,2,2;1,2,2;1,1,1", 8, 0, NULL, NAN, 1e8, false};
  char *dir, *path = tmp_xml(&dir);
  write_case(&k, path);
  int fd = open(path, O_RDONLY); /* read through /proc: the abort leaves no file behind */
  ck_assert_int_ge(fd, 0);
  remove_tmp(dir, path);
  char *proc = g_strdup_printf("/proc/self/fd/%d", fd);
  fclose(stderr); /* SimGrid's message and backtrace */
  simgrid_init(&(int){1}, (char *[]){"sg_cluster_ft_df", NULL});
  simgrid_load_platform(proc);
}
END_TEST

/* ---- tiers, ends, hierarchy ---- */

static char *hierarchy_text(const sgc_case *k, int64_t cores)
{
  cs_sg_cluster *c = cluster_of(k, NULL);
  ck_assert_ptr_nonnull(c);
  cs_hierarchy h;
  cs_sg_cluster_hierarchy(c, cores, &h);
  GString *s = g_string_new(NULL);
  for (int l = 0; l < h.nlevels; l++)
    g_string_append_printf(s, "%s%s:%lld(%s)", l ? " > " : "", h.level[l].name, (long long)h.level[l].count,
                           h.level[l].tier);
  cs_sg_cluster_free(c);
  return g_string_free(s, FALSE);
}

START_TEST(test_hierarchies)
{
  static const struct {
    sgc_case k;
    const char *want;
  } t[] = {
      {{"FAT_TREE", "3;4,4,4;1,4,4;1,1,1", 64, 0, NULL, NAN, NAN, false},
       "pod-2:4(S3) > pod-1:16(S2) > node:64(S1) > core:128(intra)"},
      {{"FAT_TREE", "2;4,4;1,2;1,2", 16, 0, NULL, NAN, NAN, false}, "pod-1:4(S2) > node:16(S1) > core:32(intra)"},
      {{"FAT_TREE", "3;2,1,3;1,2,2;1,1,1", 6, 0, NULL, NAN, NAN, false}, "pod-2:3(S3) > node:6(S1) > core:12(intra)"},
      {{"DRAGONFLY", "3,4;4,3;5,1;2", 120, 0, NULL, NAN, NAN, false},
       "group:3(blue) > chassis:12(black) > router:60(green) > node:120(local) > core:240(intra)"},
      {{"DRAGONFLY", "1,1;3,1;2,1;1", 6, 0, NULL, NAN, NAN, false}, "chassis:3(black) > node:6(green) > core:12(intra)"},
      {{"DRAGONFLY", "2,1;1,1;3,2;2", 12, 0, NULL, NAN, NAN, false},
       "group:2(blue) > router:6(green) > node:12(local) > core:24(intra)"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
    char *got = hierarchy_text(&t[i].k, 2);
    ck_assert_str_eq(got, t[i].want);
    g_free(got);
  }
}
END_TEST

static void check_link(const cs_sg_cluster *c, const char *name, const char *tier, const char *src, const char *dst)
{
  GString *n = g_string_new(NULL), *s = g_string_new(NULL), *d = g_string_new(NULL);
  for (int64_t id = 0; id < cs_sg_cluster_nlinks(c); id++) {
    g_string_truncate(n, 0);
    cs_sg_cluster_link_name(c, id, n);
    if (strcmp(n->str, name) != 0)
      continue;
    ck_assert_str_eq(cs_sg_cluster_link_tier(c, id), tier);
    ck_assert(cs_sg_cluster_link_ends(c, id, s, d));
    ck_assert_str_eq(s->str, src);
    ck_assert_str_eq(d->str, dst);
    g_string_free(n, TRUE);
    g_string_free(s, TRUE);
    g_string_free(d, TRUE);
    return;
  }
  ck_abort_msg("no link %s", name);
}

START_TEST(test_tiers_and_ends)
{
  /* SimGrid's fat-tree example: 16 hosts, 4 level-1 switches (ids 31..28), 2 level-2 (27, 26) */
  sgc_case ft = {"FAT_TREE", "2;4,4;1,2;1,2", 16, 0, "SPLITDUPLEX", 1e8, NAN, false};
  cs_sg_cluster *c = cluster_of(&ft, NULL);
  const char *names[8];
  ck_assert_int_eq(cs_sg_cluster_tiers(c, names, 8), 3);
  ck_assert_str_eq(names[0], "S2");
  ck_assert_str_eq(names[1], "S1");
  ck_assert_str_eq(names[2], "intra");
  check_link(c, "link_from_5_30_5_UP", "S1", "node-5.x", "bob_switch_1_1");
  check_link(c, "link_from_30_26_22_DOWN", "S2", "bob_switch_2_1", "bob_switch_1_1");
  check_link(c, "bob_link_3_loopback", "intra", "node-3.x", "node-3.x");
  cs_sg_cluster_free(c);
  sgc_case df = {"DRAGONFLY", "3,4;4,3;5,1;2", 120, 0, "SPLITDUPLEX", NAN, 1.5e8, false};
  c = cluster_of(&df, NULL);
  ck_assert_int_eq(cs_sg_cluster_tiers(c, names, 8), 6);
  ck_assert_str_eq(names[0], "blue");
  ck_assert_str_eq(names[3], "local");
  ck_assert_str_eq(names[4], "limiter");
  check_link(c, "local_link_from_router_7_to_node_1_15_UP", "local", "node-15.x", "bob_router_7");
  check_link(c, "blue_link_between_group_0_and_2_routers_2_and_40_331_DOWN", "blue", "bob_router_40", "bob_router_2");
  cs_sg_cluster_free(c);
}
END_TEST

/* ---- speed ---- */

/* Sanitizers and valgrind slow it down tenfold and more: no time bound there. */
static bool slow_build(void)
{
#if defined(__SANITIZE_ADDRESS__)
  return true;
#else
  const char *preload = getenv("LD_PRELOAD");
  return preload && strstr(preload, "vgpreload");
#endif
}

static double cpu_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

START_TEST(test_large_fat_tree_is_fast)
{
  GError *err = NULL;
  double c0 = cpu_seconds();
  gint64 t0 = g_get_monotonic_time();
  cs_platform *p = cs_platform_parse("fattree:16,4", &err);
  ck_assert_ptr_nonnull(p);
  cs_netmap *m = cs_platform_netmap(p, &err);
  ck_assert_msg(m != NULL, "%s", err ? err->message : "?");
  gint64 t1 = g_get_monotonic_time();
  double c1 = cpu_seconds();
  cs_route_buf buf = {0};
  int64_t hops = 0, n = m->nodes;
  GRand *r = g_rand_new_with_seed(27);
  for (int i = 0; i < 1000000; i++) {
    int64_t a = g_rand_int_range(r, 0, (gint32)n), b = g_rand_int_range(r, 0, (gint32)n);
    const int32_t *links;
    int len = cs_netmap_route(m, &buf, a, b, &links);
    /* up to the lowest common level and down again: its digits in base 16 */
    int level = 0;
    for (int64_t x = a, y = b; x != y; x /= 16, y /= 16)
      level++;
    if (len != (a == b ? 1 : 2 * level)) /* (no ck_assert here: each reports to Check's parent) */
      ck_abort_msg("node-%lld -> node-%lld: %d links", (long long)a, (long long)b, len);
    hops += len;
  }
  gint64 t2 = g_get_monotonic_time();
  double c2 = cpu_seconds();
  fprintf(stderr, "fattree:16,4: %lld links; netmap %.3f s CPU (%.3f s wall); 1M random routes, %lld hops: %.3f s CPU "
          "(%.3f s wall)\n", (long long)m->nlinks, c1 - c0, (t1 - t0) / 1e6, (long long)hops, c2 - c1, (t2 - t1) / 1e6);
  if (!slow_build())
    ck_assert_msg(c2 - c0 < 2, "fattree:16,4 took %.1f s of CPU (about 0.3 s expected)", c2 - c0);
  ck_assert_int_eq(m->nlinks, 65536 * 9);
  g_rand_free(r);
  cs_route_buf_clear(&buf);
  cs_netmap_free(m);
  cs_platform_free(p);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("sg_cluster_ft_df");
  TCase *tc = tcase_create("simgrid");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_cluster_routes_equal_simgrid, 0, (int)G_N_ELEMENTS(cases));
  tcase_add_loop_test(tc, test_family_netmap_equals_simgrid, 0, (int)G_N_ELEMENTS(family_specs));
  suite_add_tcase(s, tc);
  tc = tcase_create("emulation");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_family_spec_reads_back);
  tcase_add_test(tc, test_family_hierarchy);
  tcase_add_test(tc, test_family_refuses_bad_specs);
  tcase_add_test(tc, test_refused_parameters);
  tcase_add_test_raise_signal(tc, test_simgrid_aborts_on_switch_limiter_clash, SIGABRT);
  tcase_add_test(tc, test_hierarchies);
  tcase_add_test(tc, test_tiers_and_ends);
  tcase_add_test(tc, test_large_fat_tree_is_fast);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
