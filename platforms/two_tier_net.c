/* Two-tier direct networks (seed 001, Sections 2-3): the parts the PERCS
 * family (percs.c) and the Dragonfly family (dragonfly.c) share.
 *
 * What the paper fixes (Section 3): in-order mapping of ranks to cores, nodes
 * and supernodes; one transfer time per byte (beta) for every link.  What it
 * leaves open, and our choices for both families:
 *
 * - Link speeds.  One bandwidth for L1 and L2 (the paper's single beta):
 *   10 GB/s (1e10 bytes/s) per direction, 100 ns latency per link.  Links are
 *   directed (one per ordered pair, SHARED policy): the paper counts 15360 L1
 *   and 4032 L2 links for 64 x 16 nodes, i.e. one per direction.
 * - Intra-node traffic (ranks of one node, shared memory): a loopback link per
 *   node, 100 GB/s, zero latency, FATPIPE (as SimGrid's own cluster loopback:
 *   each flow may use the full bandwidth).  Without a route from a host to
 *   itself two actors of one host cannot talk.
 * - Host speed 1 Gflop/s per core, `core` = cores per node (only computation
 *   uses it).
 * - Link parameters after a slash: bw (sets l1, l2 and term), l1, l2, term
 *   (Dragonfly terminal links), lat, loopback, loopback_lat, with units
 *   (sim/contracts/units.h).
 *
 * XML (SimGrid 3.32, DTD version 4.1), all routes symmetrical="NO", values
 * in base units (Bps, s) so that SimGrid reads back exactly our doubles.
 * Every link is declared in a first, host-less zone "links" (see
 * cs_percs_xml for why) and has a property tier = L1, L2, T or intra (the
 * loopback).  Every link is also the whole of some route or zoneRoute, whose
 * ends are the link's endpoints (sim/engine/sg_routes.h reads them).
 */
#include "platforms/two_tier_net.h"
#include "platforms/platform.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_BW 10e9      /* bytes/s, L1, L2 and terminal links */
#define DEFAULT_LAT 100e-9   /* s per link */
#define DEFAULT_LO_BW 100e9  /* bytes/s, intra-node */
#define DEFAULT_LO_LAT 0.0
#define HOST_SPEED "1Gf"
#define MAX_P INT32_MAX

int64_t cs_net_mul_capped(int64_t a, int64_t b)
{
  if (a < 0 || b < 0)
    return -1;
  int64_t v = a * b;
  return v > MAX_P ? -1 : v;
}

void cs_net_set_defaults(cs_net *n)
{
  n->l1_bw = n->l2_bw = n->term_bw = DEFAULT_BW;
  n->latency = DEFAULT_LAT;
  n->loopback_bw = DEFAULT_LO_BW;
  n->loopback_lat = DEFAULT_LO_LAT;
}

enum { K_BW, K_L1, K_L2, K_TERM, K_LAT, K_LO, K_LOLAT, NKEYS };
static const char *const key_names[NKEYS] = {"bw", "l1", "l2", "term", "lat", "loopback", "loopback_lat"};

/* One "key=value" of the link parameters. */
static bool parse_item(const cs_spec_item *it, const cs_net *n, double *val, bool *given, GError **err)
{
  if (!it->value)
    return cs_input_error(err, "link parameter '%s' is not key=value", it->key);
  int k = 0;
  while (k < NKEYS && strcmp(it->key, key_names[k]) != 0)
    k++;
  if (k == NKEYS)
    return cs_input_error(err, "unknown link parameter '%s' (known: bw, l1, l2, term, lat, loopback, loopback_lat)",
                      it->key);
  if (k == K_TERM && !n->shape->terminal_links)
    return cs_input_error(err, "link parameter 'term' (terminal links) applies to dragonfly only");
  given[k] = true;
  char *what = g_strdup_printf("link parameter %s", it->key);
  bool ok = (k == K_LAT || k == K_LOLAT)
                ? cs_parse_quantity(what, it->value, CS_QTY_TIME, 1, 0, 1e9, &val[k], err)
                : cs_parse_quantity(what, it->value, CS_QTY_BANDWIDTH, 1, 1e-300, 1e18, &val[k], err);
  g_free(what);
  return ok;
}

/* "bw" sets the three network bandwidths first; l1, l2, term override it. */
bool cs_net_parse_params(const char *text, cs_net *n, GError **err)
{
  cs_spec_item *items = cs_spec_items(n->shape->name, text, err);
  if (!items)
    return false;
  double val[NKEYS];
  bool given[NKEYS] = {false};
  bool ok = true;
  for (cs_spec_item *it = items; ok && it->key; it++)
    ok = parse_item(it, n, val, given, err);
  cs_spec_items_free(items);
  if (!ok)
    return false;
  double *dest[NKEYS] = {NULL, &n->l1_bw, &n->l2_bw, &n->term_bw, &n->latency, &n->loopback_bw, &n->loopback_lat};
  if (given[K_BW])
    n->l1_bw = n->l2_bw = n->term_bw = val[K_BW];
  for (int k = K_L1; k < NKEYS; k++)
    if (given[k])
      *dest[k] = val[k];
  return true;
}

bool cs_net_parse_shape(const cs_net_shape *shape, const char *args, cs_net *out, GError **err)
{
  char *fields, *params;
  cs_spec_split(args, &fields, &params);
  cs_net n;
  memset(&n, 0, sizeof n);
  cs_net_set_defaults(&n);
  n.shape = shape;
  bool ok = shape->parse(fields, &n, err);
  if (ok && params)
    ok = cs_net_parse_params(params, &n, err);
  g_free(fields);
  g_free(params);
  if (ok) {
    cs_net_set_view(&n);
    *out = n;
  }
  return ok;
}

char *cs_net_describe(const cs_net *n)
{
  GString *s = g_string_new(NULL);
  n->shape->describe(n, s);
  const struct {
    const char *key;
    double value, def;
    bool latency;
  } params[] = {
      {"l1", n->l1_bw, DEFAULT_BW, false},
      {"l2", n->l2_bw, DEFAULT_BW, false},
      {"term", n->shape->terminal_links ? n->term_bw : DEFAULT_BW, DEFAULT_BW, false},
      {"lat", n->latency, DEFAULT_LAT, true},
      {"loopback", n->loopback_bw, DEFAULT_LO_BW, false},
      {"loopback_lat", n->loopback_lat, DEFAULT_LO_LAT, true},
  };
  char sep = '/';
  for (size_t i = 0; i < G_N_ELEMENTS(params); i++) {
    if (params[i].value == params[i].def)
      continue;
    g_string_append_printf(s, "%c%s=", sep, params[i].key);
    cs_format_quantity(s, params[i].value, params[i].latency ? CS_QTY_TIME : CS_QTY_BANDWIDTH);
    sep = ',';
  }
  return g_string_free(s, FALSE);
}

/* ---- wiring ---- */

static bool pair_ok(const cs_net *n, int64_t from, int64_t to)
{
  return from >= 0 && to >= 0 && from < n->sn && to < n->sn && from != to;
}

int64_t cs_net_gateway(const cs_net *n, int64_t from, int64_t to)
{
  if (!pair_ok(n, from, to))
    return -1;
  return n->shape->gateway(&n->tt, from, to);
}

int64_t cs_net_landing(const cs_net *n, int64_t from, int64_t to) { return cs_net_gateway(n, to, from); }

int64_t cs_net_nodes(const cs_net *n) { return n->sn * n->nps; }

cs_net_link_counts cs_net_count_links(const cs_net *n)
{
  cs_net_link_counts c = {0, n->sn * (n->sn - 1), 0, cs_net_nodes(n)};
  n->shape->count_links(n, &c);
  return c;
}

/* Landing: the gateway seen from the other end. */
static int64_t view_landing(const cs_two_tier *t, int64_t from, int64_t to) { return t->gateway(t, to, from); }

void cs_net_set_view(cs_net *n)
{
  memset(&n->tt, 0, sizeof n->tt);
  n->tt.sn = n->sn;
  n->tt.nps = n->nps;
  n->tt.cpn = n->cpn;
  n->tt.p = n->p;
  n->tt.gateway = n->shape->gateway;
  n->tt.landing = view_landing;
  n->shape->set_wiring(n, &n->tt);
}

/* ---- XML ---- */

#define LL(x) ((long long)(x))

void cs_net_xml_link_attrs(cs_net_xml *x, const char *bw, const char *lat, const char *policy, const char *tier)
{
  fprintf(x->f, "\" bandwidth=\"%s\" latency=\"%s\" sharing_policy=\"%s\"><prop id=\"tier\" value=\"%s\"/></link>\n",
          bw, lat, policy, tier);
}

void cs_net_xml_loopback(cs_net_xml *x, int64_t g)
{
  fprintf(x->f, "      <link id=\"lo-node-%lld", LL(g));
  cs_net_xml_link_attrs(x, x->lo, x->lolat, "FATPIPE", "intra");
}

void cs_net_xml_host(cs_net_xml *x, const char *indent, int64_t g)
{
  fprintf(x->f, "%s<host id=\"node-%lld\" speed=\"" HOST_SPEED "\" core=\"%lld\"/>\n", indent, LL(g), LL(x->n->cpn));
}

void cs_net_xml_loopback_route(cs_net_xml *x, const char *indent, int64_t g)
{
  fprintf(x->f, "%s<route src=\"node-%lld\" dst=\"node-%lld\" symmetrical=\"NO\"><link_ctn id=\"lo-node-%lld\"/></route>\n",
          indent, LL(g), LL(g), LL(g));
}

/* Values in the XML are in base units (Bps, s), shortest exact decimal:
 * SimGrid multiplies "50ns" by 1e-9, which is not exactly 50 / 1e9. */
static char *base_unit_string(double x, const char *unit)
{
  char num[64];
  cs_shortest_double(num, sizeof num, x);
  return g_strconcat(num, unit, NULL);
}

bool cs_net_write_stream(const cs_net *n, FILE *f)
{
  cs_net_xml x = {f,
                  n,
                  base_unit_string(n->l1_bw, "Bps"),
                  base_unit_string(n->l2_bw, "Bps"),
                  base_unit_string(n->term_bw, "Bps"),
                  base_unit_string(n->latency, "s"),
                  base_unit_string(n->loopback_bw, "Bps"),
                  base_unit_string(n->loopback_lat, "s")};
  char *desc = cs_net_describe(n);
  fprintf(f,
          "<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!-- %s: %lld nodes of %lld cores; generated by collsim (platforms/%s.c) -->\n"
          "<platform version=\"4.1\">\n",
          desc, (long long)cs_net_nodes(n), (long long)n->cpn, n->shape->name);
  n->shape->xml(&x);
  fputs("</platform>\n", f);
  g_free(desc);
  g_free(x.l1);
  g_free(x.l2);
  g_free(x.term);
  g_free(x.lat);
  g_free(x.lo);
  g_free(x.lolat);
  return !ferror(f);
}

void cs_net_estimate(const cs_net *n, int64_t *links, int64_t *xml_bytes)
{
  cs_net_link_counts c = cs_net_count_links(n);
  *links = c.l1 + c.l2 + c.term + c.loopback;
  /* each link is declared once and used by about one route or zoneRoute:
   * about 230 bytes of XML for the pair (measured on percs:64,16,16) */
  *xml_bytes = *links * 230 + cs_net_nodes(n) * 200;
}

/* ---- the platform-interface side, shared by both families ---- */

bool cs_net_family_parse(cs_platform *p, const cs_net_shape *shape, const char *args, GError **err)
{
  cs_net *n = g_new0(cs_net, 1);
  p->data = n;
  bool ok = cs_net_parse_shape(shape, args, n, err);
  if (ok) {
    p->nodes = cs_net_nodes(n);
    p->cores = (int)n->cpn;
    p->link_bw = n->l1_bw < n->l2_bw ? n->l1_bw : n->l2_bw;
    p->cpu = "1 Gflop/s core (our choice)";
  }
  return ok;
}

char *cs_net_family_describe(const cs_platform *p) { return cs_net_describe(p->data); }

bool cs_net_family_write(const cs_platform *p, FILE *out) { return cs_net_write_stream(p->data, out); }

void cs_net_family_estimate(const cs_platform *p, int64_t *links, int64_t *xml_bytes)
{
  cs_net_estimate(p->data, links, xml_bytes);
}



/* ---- the netmap and the hierarchy ---- */

int32_t cs_net_loopback_link_id(const cs_net *n, int64_t g)
{
  (void)n;
  return (int32_t)g;
}

int32_t cs_net_l2_link_id(const cs_net *n, int64_t a, int64_t b)
{
  return (int32_t)(cs_net_nodes(n) + a * (n->sn - 1) + b - (b > a));
}

int32_t cs_net_own_link_id(const cs_net *n, int64_t idx) { return (int32_t)(cs_net_nodes(n) + n->sn * (n->sn - 1) + idx); }

/* The class of link id: its index inside the class. */
typedef enum { LINK_LOOPBACK, LINK_L2, LINK_OWN } link_class;

static link_class classify(const cs_net *n, int64_t id, int64_t *idx)
{
  int64_t nodes = cs_net_nodes(n), l2 = n->sn * (n->sn - 1);
  if (id < nodes) {
    *idx = id;
    return LINK_LOOPBACK;
  }
  if (id < nodes + l2) {
    *idx = id - nodes;
    return LINK_L2;
  }
  *idx = id - nodes - l2;
  return LINK_OWN;
}

/* L2 link idx joins supernode a to b. */
static void l2_pair(const cs_net *n, int64_t idx, int64_t *a, int64_t *b)
{
  *a = idx / (n->sn - 1);
  *b = idx % (n->sn - 1);
  *b += *b >= *a;
}

/* Everything known of link id: name, ends, tier, bandwidth, latency. */
static void describe_link(const cs_net *n, int64_t id, GString *name, GString *src, GString *dst, const char **tier,
                          double *bw, double *lat)
{
  int64_t idx, a, b;
  *lat = n->latency;
  switch (classify(n, id, &idx)) {
  case LINK_LOOPBACK:
    g_string_append_printf(name, "lo-node-%lld", LL(idx));
    g_string_append_printf(src, "node-%lld", LL(idx));
    g_string_append_printf(dst, "node-%lld", LL(idx));
    *tier = "intra";
    *bw = n->loopback_bw;
    *lat = n->loopback_lat;
    return;
  case LINK_L2:
    l2_pair(n, idx, &a, &b);
    g_string_append_printf(name, "L2-%c%lld-%c%lld", n->shape->terminal_links ? 'g' : 's', LL(a),
                           n->shape->terminal_links ? 'g' : 's', LL(b));
    n->shape->l2_ends(n, a, b, src, dst);
    *tier = "L2";
    *bw = n->l2_bw;
    return;
  case LINK_OWN: {
    cs_net_link l = {name, src, dst, NULL, 0};
    n->shape->own_link(n, idx, &l);
    *tier = l.tier;
    *bw = l.bw;
    return;
  }
  }
}

typedef struct net_map {
  cs_net net;
  int tier_index[4]; /* L1, L2, T, intra in the map's tiers */
} net_map;

static const cs_net *map_net(const cs_netmap *m) { return &((const net_map *)m->data)->net; }

static void nm_name(const cs_netmap *m, int64_t id, GString *out)
{
  GString *src = g_string_new(NULL), *dst = g_string_new(NULL);
  const char *tier;
  double bw, lat;
  describe_link(map_net(m), id, out, src, dst, &tier, &bw, &lat);
  g_string_free(src, TRUE);
  g_string_free(dst, TRUE);
}

static bool nm_ends(const cs_netmap *m, int64_t id, GString *src, GString *dst)
{
  GString *name = g_string_new(NULL);
  const char *tier;
  double bw, lat;
  describe_link(map_net(m), id, name, src, dst, &tier, &bw, &lat);
  g_string_free(name, TRUE);
  return true;
}

static int nm_tier(const cs_netmap *m, int64_t id)
{
  const net_map *d = m->data;
  int64_t idx;
  switch (classify(&d->net, id, &idx)) {
  case LINK_LOOPBACK:
    return d->tier_index[3];
  case LINK_L2:
    return d->tier_index[1];
  default:
    return idx < cs_net_count_links(&d->net).l1 ? d->tier_index[0] : d->tier_index[2];
  }
}

/* Bandwidth or latency of link id, from its class alone (no names built:
 * the cost parameters ask it for every hop of every route they read). */
static double nm_value(const cs_netmap *m, int64_t id, bool latency)
{
  const cs_net *n = map_net(m);
  int64_t idx;
  switch (classify(n, id, &idx)) {
  case LINK_LOOPBACK:
    return latency ? n->loopback_lat : n->loopback_bw;
  case LINK_L2:
    return latency ? n->latency : n->l2_bw;
  default:
    return latency ? n->latency : idx < cs_net_count_links(n).l1 ? n->l1_bw : n->term_bw;
  }
}

static double nm_bw(const cs_netmap *m, int64_t id) { return nm_value(m, id, false); }
static double nm_lat(const cs_netmap *m, int64_t id) { return nm_value(m, id, true); }

static int nm_route(const cs_netmap *m, int64_t a, int64_t b, int32_t *links, int cap)
{
  const cs_net *n = map_net(m);
  int64_t nodes = cs_net_nodes(n);
  if (a < 0 || b < 0 || a >= nodes || b >= nodes)
    return -1;
  int32_t r[8];
  int len = 1;
  if (a == b)
    r[0] = cs_net_loopback_link_id(n, a);
  else
    len = n->shape->route(n, a, b, r);
  for (int i = 0; i < len && i < cap; i++)
    links[i] = r[i];
  return len;
}

static const cs_netmap_ops net_map_ops = {
    .link_name = nm_name,
    .link_tier = nm_tier,
    .link_ends = nm_ends,
    .link_bandwidth = nm_bw,
    .link_latency = nm_lat,
    .route = nm_route,
    .free_data = g_free,
};

cs_netmap *cs_net_family_netmap(const cs_platform *p, GError **err)
{
  (void)err;
  net_map *d = g_new0(net_map, 1);
  d->net = *(const cs_net *)p->data;
  cs_net_link_counts c = cs_net_count_links(&d->net);
  cs_netmap *m = cs_netmap_new(&net_map_ops, d, cs_net_nodes(&d->net), c.l1 + c.l2 + c.term + c.loopback);
  /* report order: the order of first appearance by name (L1-, L2-, T-, lo-), intra last */
  d->tier_index[0] = cs_netmap_tier(m, "L1");
  d->tier_index[1] = cs_netmap_tier(m, "L2");
  d->tier_index[2] = d->net.shape->terminal_links ? cs_netmap_tier(m, "T") : -1;
  d->tier_index[3] = cs_netmap_tier(m, "intra");
  return m;
}

void cs_net_family_hierarchy(const cs_platform *p, cs_hierarchy *out)
{
  const cs_net *n = p->data;
  memset(out, 0, sizeof *out);
  const char *node_tier = "L1";
  n->shape->levels(n, out, &node_tier);
  cs_hier_finish(out, cs_net_nodes(n), n->cpn, node_tier);
  out->gateway = n->tt.gateway;
  out->landing = n->tt.landing;
  memcpy(out->wiring, n->tt.wiring, sizeof out->wiring);
}
