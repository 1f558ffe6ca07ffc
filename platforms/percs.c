/* PERCS (seed 001, Sections 2-3): the platform family "percs".
 *
 *   percs:SN,NPS,CPN[/link parameters]     e.g. percs:64,16,16 (the paper's machine)
 *
 * SN supernodes of NPS nodes of CPN cores.  What the paper fixes: an
 * all-to-all L1 clique inside each supernode and one L2 link between every
 * pair of supernodes, the link from S1 to S2 leaving node (S2 mod NPS) of S1
 * and landing on node (S1 mod NPS) of S2; direct routing (L1 to the gateway,
 * L2, L1 from the landing node).  Link speeds and the other choices shared
 * with Dragonfly: two_tier_net.c.
 *
 * XML: top zone "percs" (Full) with one Full zone "sn-<s>" per supernode:
 * hosts node-<g> (g = s*nps + j), a route per ordered pair over link
 * L1-s<s>-n<i>-n<j>, and node-<g> -> node-<g> over its loopback lo-node-<g>;
 * at the top, zoneRoutes over L2-s<a>-s<b> with gw_src / gw_dst the gateway
 * and landing hosts.  Measured here: percs:64,16,16 4.7 MB, written in 0.02
 * s, loaded by SimGrid in 0.14 s; percs:256,32,128 77 MB, 0.15 s, 2.5 s (350
 * MB of memory).
 */
#include "platforms/platform.h"
#include "platforms/two_tier_net.h"
#include "sim/contracts/errors.h"

#include <stdio.h>
#include <string.h>

#define LL(x) ((long long)(x))

static bool percs_parse_shape(const char *fields, cs_net *n, GError **err)
{
  static const char *const names[] = {"SN", "NPS", "CPN"};
  int64_t v[3];
  if (!cs_spec_counts("percs", fields, ',', names, 3, 3, v, err))
    return false;
  n->sn = v[0];
  n->nps = v[1];
  n->cpn = v[2];
  n->p = cs_net_mul_capped(cs_net_mul_capped(n->sn, n->nps), n->cpn);
  if (n->p < 0) {
    g_set_error(err, CS_INPUT_ERROR, 1, "percs:%s: p = SN*NPS*CPN exceeds 2^31-1", fields);
    return false;
  }
  return true;
}

/* The node of supernode `from` holding the L2 link to `to`: node to mod nps. */
static int64_t percs_gateway(const cs_two_tier *t, int64_t from, int64_t to)
{
  if (from < 0 || to < 0 || from >= t->sn || to >= t->sn || from == to)
    return -1;
  return to % t->nps;
}

static void percs_set_wiring(const cs_net *n, cs_two_tier *t)
{
  (void)n;
  (void)t; /* the gateway needs nps only */
}

static void percs_describe(const cs_net *n, GString *s)
{
  g_string_append_printf(s, "percs:%lld,%lld,%lld", LL(n->sn), LL(n->nps), LL(n->cpn));
}

/* Every ordered pair of nodes of a supernode. */
static void percs_count_links(const cs_net *n, cs_net_link_counts *c) { c->l1 = n->sn * n->nps * (n->nps - 1); }

/* SimGrid 3.32 resolves each <link_ctn> by a depth-first search of the zone
 * tree from the root, so a link declared in the k-th zone costs a visit of
 * the k-1 zones before it: 10-13 s to load 8192 nodes.  Declaring every link
 * in a first zone "links" (no hosts, no routes) makes it one map lookup:
 * 0.7-2.2 s.  Links must come after sub-zones in a zone, hence the extra zone. */
static void percs_links(cs_net_xml *x)
{
  const cs_net *n = x->n;
  for (int64_t s = 0; s < n->sn; s++) {
    for (int64_t j = 0; j < n->nps; j++)
      cs_net_xml_loopback(x, s * n->nps + j);
    for (int64_t i = 0; i < n->nps; i++)
      for (int64_t j = 0; j < n->nps; j++)
        if (i != j) {
          fprintf(x->f, "      <link id=\"L1-s%lld-n%lld-n%lld", LL(s), LL(i), LL(j));
          cs_net_xml_link_attrs(x, x->l1, x->lat, "SHARED", "L1");
        }
  }
  for (int64_t a = 0; a < n->sn; a++)
    for (int64_t b = 0; b < n->sn; b++)
      if (a != b) {
        fprintf(x->f, "      <link id=\"L2-s%lld-s%lld", LL(a), LL(b));
        cs_net_xml_link_attrs(x, x->l2, x->lat, "SHARED", "L2");
      }
}

static void percs_supernode(cs_net_xml *x, int64_t s)
{
  FILE *f = x->f;
  int64_t nps = x->n->nps, base = s * nps;
  fprintf(f, "    <zone id=\"sn-%lld\" routing=\"Full\">\n", LL(s));
  for (int64_t j = 0; j < nps; j++)
    cs_net_xml_host(x, "      ", base + j);
  for (int64_t i = 0; i < nps; i++) {
    cs_net_xml_loopback_route(x, "      ", base + i);
    for (int64_t j = 0; j < nps; j++)
      if (i != j)
        fprintf(f,
                "      <route src=\"node-%lld\" dst=\"node-%lld\" symmetrical=\"NO\">"
                "<link_ctn id=\"L1-s%lld-n%lld-n%lld\"/></route>\n",
                LL(base + i), LL(base + j), LL(s), LL(i), LL(j));
  }
  fputs("    </zone>\n", f);
}

static void percs_xml(cs_net_xml *x)
{
  const cs_net *n = x->n;
  FILE *f = x->f;
  fputs("  <zone id=\"percs\" routing=\"Full\">\n    <zone id=\"links\" routing=\"Full\">\n", f);
  percs_links(x);
  fputs("    </zone>\n", f);
  for (int64_t s = 0; s < n->sn; s++)
    percs_supernode(x, s);
  for (int64_t a = 0; a < n->sn; a++)
    for (int64_t b = 0; b < n->sn; b++)
      if (a != b)
        fprintf(f,
                "    <zoneRoute src=\"sn-%lld\" dst=\"sn-%lld\" gw_src=\"node-%lld\" gw_dst=\"node-%lld\" "
                "symmetrical=\"NO\"><link_ctn id=\"L2-s%lld-s%lld\"/></zoneRoute>\n",
                LL(a), LL(b), LL(a * n->nps + cs_net_gateway(n, a, b)), LL(b * n->nps + cs_net_landing(n, a, b)),
                LL(a), LL(b));
  fputs("  </zone>\n", f);
}

/* ---- the netmap: L1 link (s, i, j) is own link s*nps*(nps-1) + i*(nps-1) + j - (j > i) ---- */

static int32_t l1_id(const cs_net *n, int64_t s, int64_t i, int64_t j)
{
  return cs_net_own_link_id(n, s * n->nps * (n->nps - 1) + i * (n->nps - 1) + j - (j > i));
}

static void percs_own_link(const cs_net *n, int64_t idx, cs_net_link *out)
{
  int64_t per = n->nps - 1, s = idx / (n->nps * per), i = idx / per % n->nps, j = idx % per;
  j += j >= i;
  g_string_append_printf(out->name, "L1-s%lld-n%lld-n%lld", LL(s), LL(i), LL(j));
  g_string_append_printf(out->src, "node-%lld", LL(s * n->nps + i));
  g_string_append_printf(out->dst, "node-%lld", LL(s * n->nps + j));
  out->tier = "L1";
  out->bw = n->l1_bw;
}

static void percs_l2_ends(const cs_net *n, int64_t a, int64_t b, GString *src, GString *dst)
{
  g_string_append_printf(src, "node-%lld", LL(a * n->nps + cs_net_gateway(n, a, b)));
  g_string_append_printf(dst, "node-%lld", LL(b * n->nps + cs_net_landing(n, a, b)));
}

/* L1 to the gateway, L2, L1 from the landing node (SimGrid's hierarchical
 * routing through the zoneRoute's gw_src and gw_dst; no L1 hop where the
 * node is the gateway or the landing node itself). */
static int percs_route(const cs_net *n, int64_t a, int64_t b, int32_t *out)
{
  int64_t sa = a / n->nps, ia = a % n->nps, sb = b / n->nps, ib = b % n->nps;
  if (sa == sb) {
    out[0] = l1_id(n, sa, ia, ib);
    return 1;
  }
  int64_t gw = cs_net_gateway(n, sa, sb), land = cs_net_landing(n, sa, sb);
  int len = 0;
  if (ia != gw)
    out[len++] = l1_id(n, sa, ia, gw);
  out[len++] = cs_net_l2_link_id(n, sa, sb);
  if (land != ib)
    out[len++] = l1_id(n, sb, land, ib);
  return len;
}

static void percs_levels(const cs_net *n, cs_hierarchy *h, const char **node_tier)
{
  cs_hier_push(h, "supernode", "L2", n->sn);
  *node_tier = "L1";
}

const cs_net_shape cs_net_shape_percs = {
    .name = "percs",
    .terminal_links = false,
    .parse = percs_parse_shape,
    .describe = percs_describe,
    .set_wiring = percs_set_wiring,
    .gateway = percs_gateway,
    .count_links = percs_count_links,
    .xml = percs_xml,
    .own_link = percs_own_link,
    .route = percs_route,
    .l2_ends = percs_l2_ends,
    .levels = percs_levels,
};

cs_net cs_net_percs(int64_t sn, int64_t nps, int64_t cpn)
{
  cs_net n;
  memset(&n, 0, sizeof n);
  cs_net_set_defaults(&n);
  n.shape = &cs_net_shape_percs;
  n.sn = sn;
  n.nps = nps;
  n.cpn = cpn;
  n.p = sn * nps * cpn;
  cs_net_set_view(&n);
  return n;
}

static bool percs_parse(cs_platform *p, const char *args, GError **err)
{
  return cs_net_family_parse(p, &cs_net_shape_percs, args, err);
}

const cs_platform_family cs_platform_percs = {
    .kind = "percs",
    .synopsis = "percs:SN,NPS,CPN[/bw=..,l1=..,l2=..,lat=..,loopback=..,loopback_lat=..]",
    .description = "PERCS two-tier network (seed 001): supernodes x nodes x cores, L1 cliques, one L2 link per "
                   "supernode pair",
    .params = "bw (sets l1, l2; 10GBps), l1, l2, lat (100ns), loopback (100GBps), loopback_lat (0s)",
    .examples = (const char *const[]){"percs:3,2,2", "percs:2,3,1", "percs:1,4,1", NULL},
    .parse = percs_parse,
    .describe = cs_net_family_describe,
    .write_xml = cs_net_family_write,
    .estimate = cs_net_family_estimate,
    .hierarchy = cs_net_family_hierarchy,
    .netmap = cs_net_family_netmap,
    .free_data = g_free,
};
