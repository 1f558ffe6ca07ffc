/* Fat tree: the platform family "fattree", a k-ary L-tree (Petrini and
 * Vanneschi, "k-ary n-trees: high performance networks for massively
 * parallel architectures", IPPS 1997).
 *
 *   fattree:K,L[/C][,bw=..][,lat=..][,loopback=..][,loopback_lat=..]
 *
 * K^L nodes of C cores (default 1; --cores sets it too), L levels of
 * K^(L-1) switches each; a switch has K ports down and (below the top
 * level) K ports up; a node hangs off one switch of level 1.  In SimGrid's
 * FAT_TREE notation (topo_parameters "L;down;up;count", docs/source/
 * Platform_examples.rst of SimGrid 3.32): L; K,..,K; 1,K,..,K; 1,..,1.
 *
 * Defaults (100 Gb/s-class InfiniBand, e.g. EDR: 4 lanes x 25 Gb/s =
 * 100 Gb/s per direction, 12.5 GB/s; Mellanox quotes about 90 ns
 * port-to-port for its EDR switches (SB7800 product brief), so 100 ns per
 * hop with the cable): bw 12.5 GB/s per link and direction, lat 100 ns.
 * The loopback (two ranks of one node talking through memory) is our
 * choice: 20 GB/s and 100 ns, a memory copy on a current two-socket node.
 * A core is rated 40 Gflop/s (2.5 GHz x 16 double-precision flops per
 * cycle, AVX-512 FMA).
 *
 * XML: ONE SimGrid FAT_TREE cluster "fattree", hosts node-0 .. node-<K^L-1>,
 * SPLITDUPLEX links, loopback links.  SimGrid names the links
 * link_from_<child>_<parent>_<n>_UP/_DOWN (child and parent: SimGrid's
 * ids of the two nodes, n: the link's creation number) and
 * fattree_link_<node>_loopback; platforms/sg_cluster_fattree.c emulates
 * the zone (names, d-mod-k routes) for the netmap.  Tiers: S1 .. SL (the
 * links between switch level i-1, 0 being the nodes, and level i), intra
 * (the loopback).  Hierarchy: pod-(L-1) .. pod-1 (the nodes under one
 * switch of that level), node, core.
 */
#include "platforms/platform.h"
#include "platforms/sg_cluster.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fattree {
  int k, levels;
  double link_bw, link_lat, loopback_bw, loopback_lat;
  char *topo_parameters; /* SimGrid's "L;down;up;count" */
} fattree;

#define CLUSTER_ID "fattree"
#define HOST_PREFIX "node-"
#define DEFAULT_CORES 1
#define DEFAULT_BW 12.5e9
#define DEFAULT_LAT 100e-9
#define DEFAULT_LO_BW 20e9
#define DEFAULT_LO_LAT 100e-9
#define CORE_SPEED 40e9
#define MAX_K 1024
#define MAX_LEVELS 16
#define MAX_NODES ((int64_t)1 << 24) /* SimGrid numbers the tree's nodes with ints */

static int64_t ipow(int64_t base, int exp)
{
  int64_t r = 1;
  while (exp-- > 0)
    r *= base;
  return r;
}

static bool parse_shape(cs_platform *p, const char *shape, GError **err)
{
  fattree *t = p->data;
  static const char *const names[] = {"K", "L"};
  int64_t v[2];
  if (!cs_spec_counts("fattree", shape, ',', names, 2, 2, v, err))
    return false;
  if (v[0] < 2 || v[0] > MAX_K)
    return cs_input_error(err, "fattree: K = %lld must be between 2 and %d (e.g. fattree:4,3)", (long long)v[0], MAX_K);
  if (v[1] > MAX_LEVELS)
    return cs_input_error(err, "fattree: L = %lld must be between 1 and %d (e.g. fattree:4,3)", (long long)v[1],
                          MAX_LEVELS);
  double nodes = pow((double)v[0], (double)v[1]);
  if (nodes > (double)MAX_NODES)
    return cs_input_error(err, "fattree: K^L = %lld^%lld = %.0f nodes exceeds %lld", (long long)v[0], (long long)v[1],
                          nodes, (long long)MAX_NODES);
  t->k = (int)v[0];
  t->levels = (int)v[1];
  return true;
}

static bool parse_param(cs_platform *p, const cs_spec_item *it, GError **err)
{
  fattree *t = p->data;
  const char *k = it->key;
  if (!it->value || strcmp(k, "cores") == 0) {
    int64_t c;
    if (!cs_parse_int(it->value ? "fattree cores" : "fattree cores (after '/')", it->value ? it->value : k, 1, 1024,
                      &c, err))
      return false;
    p->cores = (int)c;
    return true;
  }
  if (strcmp(k, "bw") == 0)
    return cs_parse_quantity("fattree bw", it->value, CS_QTY_BANDWIDTH, 1, 1, 1e15, &t->link_bw, err);
  if (strcmp(k, "lat") == 0)
    return cs_parse_quantity("fattree lat", it->value, CS_QTY_TIME, 1, 0, 1e9, &t->link_lat, err);
  if (strcmp(k, "loopback") == 0)
    return cs_parse_quantity("fattree loopback", it->value, CS_QTY_BANDWIDTH, 1, 1, 1e15, &t->loopback_bw, err);
  if (strcmp(k, "loopback_lat") == 0)
    return cs_parse_quantity("fattree loopback_lat", it->value, CS_QTY_TIME, 1, 0, 1e9, &t->loopback_lat, err);
  return cs_input_error(err, "fattree: unknown parameter '%s' (known: cores, bw, lat, loopback, loopback_lat)", k);
}

/* "L;K,..,K;1,K,..,K;1,..,1" */
static char *topo_parameters(int k, int levels)
{
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "%d;", levels);
  for (int i = 0; i < levels; i++)
    g_string_append_printf(s, "%s%d", i ? "," : "", k);
  g_string_append_c(s, ';');
  for (int i = 0; i < levels; i++)
    g_string_append_printf(s, "%s%d", i ? "," : "", i ? k : 1);
  g_string_append_c(s, ';');
  for (int i = 0; i < levels; i++)
    g_string_append_printf(s, "%s1", i ? "," : "");
  return g_string_free(s, FALSE);
}

static void fattree_free(void *data)
{
  fattree *t = data;
  if (t)
    g_free(t->topo_parameters);
  g_free(t);
}

static bool fattree_parse(cs_platform *p, const char *args, GError **err)
{
  fattree *t = g_new0(fattree, 1);
  *t = (fattree){0, 0, DEFAULT_BW, DEFAULT_LAT, DEFAULT_LO_BW, DEFAULT_LO_LAT, NULL};
  p->data = t;
  p->cores = DEFAULT_CORES;
  bool ok = cs_spec_parse(p, "fattree", args, parse_shape, parse_param, err);
  if (ok) {
    p->nodes = ipow(t->k, t->levels);
    t->topo_parameters = topo_parameters(t->k, t->levels);
  }
  p->link_bw = t->link_bw;
  p->cpu = "2.5 GHz x86-64 core, AVX-512 (40 Gflop/s)";
  return ok;
}

static char *fattree_describe(const cs_platform *p)
{
  const fattree *t = p->data;
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "fattree:%d,%d", t->k, t->levels);
  bool params = p->cores != DEFAULT_CORES || t->link_bw != DEFAULT_BW || t->link_lat != DEFAULT_LAT ||
                t->loopback_bw != DEFAULT_LO_BW || t->loopback_lat != DEFAULT_LO_LAT;
  if (params)
    g_string_append_printf(s, "/%d", p->cores);
  char sep = ','; /* the parameters follow the cores */
  cs_spec_append_param(s, &sep, "bw", t->link_bw, DEFAULT_BW, CS_QTY_BANDWIDTH);
  cs_spec_append_param(s, &sep, "lat", t->link_lat, DEFAULT_LAT, CS_QTY_TIME);
  cs_spec_append_param(s, &sep, "loopback", t->loopback_bw, DEFAULT_LO_BW, CS_QTY_BANDWIDTH);
  cs_spec_append_param(s, &sep, "loopback_lat", t->loopback_lat, DEFAULT_LO_LAT, CS_QTY_TIME);
  return g_string_free(s, FALSE);
}

/* The one cluster element of the fat tree: what fattree_write writes and
 * what the netmap routes (free *radical after use). */
static cs_sgc_params fattree_params(const cs_platform *p, int64_t **radical)
{
  const fattree *t = p->data;
  *radical = cs_sgc_radical_range(0, p->nodes);
  return (cs_sgc_params){.id = CLUSTER_ID, .prefix = HOST_PREFIX, .suffix = "", .radical = *radical,
                         .nhosts = p->nodes, .topology = "FAT_TREE", .topo_parameters = t->topo_parameters,
                         .bw = t->link_bw, .lat = t->link_lat, .sharing_policy = "SPLITDUPLEX",
                         .loopback_bw = t->loopback_bw, .loopback_lat = t->loopback_lat, .limiter_link = NAN,
                         .bb_bw = NAN, .bb_lat = NAN};
}

static bool fattree_write(const cs_platform *p, FILE *out)
{
  const fattree *t = p->data;
  int64_t *radical;
  cs_sgc_params q = fattree_params(p, &radical);
  bool ok = fprintf(out,
                    "<?xml version='1.0'?>\n"
                    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                    "<!-- %d-ary %d-tree (fat tree), %d cores per node; generated by collsim (platforms/fattree.c) "
                    "-->\n<platform version=\"4.1\">\n",
                    t->k, t->levels, p->cores) >= 0 &&
            cs_sg_cluster_write_xml(out, "  ", &q, CORE_SPEED, p->cores) && fputs("</platform>\n", out) >= 0;
  g_free(radical);
  return ok;
}

/* Each level of links holds K^L cables (nodes to level 1: one each; level i
 * to i+1: K^(L-1) switches x K up ports), two links per cable, plus one
 * loopback per node. */
static void fattree_estimate(const cs_platform *p, int64_t *links, int64_t *xml_bytes)
{
  const fattree *t = p->data;
  *links = p->nodes * (2 * (int64_t)t->levels + 1);
  *xml_bytes = 1024; /* one cluster element */
}

/* ---- the emulated zone: hierarchy and netmap ---- */

static cs_sg_cluster *fattree_cluster(const cs_platform *p, GError **err)
{
  int64_t *radical;
  cs_sgc_params q = fattree_params(p, &radical);
  cs_sg_cluster *c = cs_sg_cluster_new(&q, err);
  g_free(radical);
  return c;
}

static void fattree_hierarchy(const cs_platform *p, cs_hierarchy *out)
{
  cs_sg_cluster *c = fattree_cluster(p, NULL);
  g_assert(c); /* the parser accepted only shapes the emulation builds */
  cs_sg_cluster_hierarchy(c, p->cores, out);
  cs_sg_cluster_free(c);
}

static cs_netmap *fattree_netmap(const cs_platform *p, GError **err)
{
  cs_sg_cluster *c = fattree_cluster(p, err);
  return c ? cs_sg_cluster_netmap(c) : NULL;
}

const cs_platform_family cs_platform_fattree = {
    .kind = "fattree",
    .synopsis = "fattree:K,L[/C][,bw=..,lat=..,loopback=..,loopback_lat=..]",
    .description = "k-ary L-tree fat tree (K^L nodes, L levels of K^(L-1) switches), C cores per node (default 1), "
                   "SimGrid's d-mod-k routing",
    .params = "C or cores=C, bw (12.5GBps), lat (100ns), loopback (20GBps), loopback_lat (100ns)",
    .examples = (const char *const[]){"fattree:2,2", "fattree:4,2/2", "fattree:2,3/2", NULL},
    .cores_option = true,
    .parse = fattree_parse,
    .describe = fattree_describe,
    .write_xml = fattree_write,
    .estimate = fattree_estimate,
    .hierarchy = fattree_hierarchy,
    .netmap = fattree_netmap,
    .free_data = fattree_free,
};
