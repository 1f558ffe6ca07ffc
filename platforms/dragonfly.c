/* Dragonfly (Kim et al., ISCA 2008; seed 001 Section 2): the platform family
 * "dragonfly".
 *
 *   dragonfly:G,A,H,P[,C][/link parameters]
 *
 * G groups of A routers, H global ports and P nodes per router, C cores per
 * node (default 1).  Terminal links node<->router (tier T, 10 GB/s by
 * default), an all-to-all of directed local links between the routers of a
 * group (tier L1), one directed global link per ordered pair of groups (tier
 * L2).  Global arrangement (circulant, also called relative): global port
 * j = 0..G-2 of group g (port j on router j / H) connects to group
 * (g + j + 1) mod G.  The cable between g1 and g2 thus joins port
 * (g2 - g1 - 1) mod G of g1 and port (g1 - g2 - 1) mod G of g2; both
 * directions use the same pair of routers, every pair of groups is joined
 * exactly once, and ports G-1..A*H-1 stay unused (we need G-1 <= A*H; no
 * parallel global links).  Minimal routing: node -> its router -> [local
 * link to the gateway router] -> global link -> [local link to the
 * destination's router] -> node.
 *
 * Two-tier view: a group is a supernode, nps = A*P, node j of a group hangs
 * off router j / P.  The gateway node of the global link that uses port j of
 * a group is node (j / H) * P + (j mod H) mod P: a node of the gateway
 * router, the router's ports spread over its nodes round robin (as PERCS
 * spreads L2 links over nodes).
 *
 * XML: three levels so that the file grows with A*P^2 per group and not
 * (A*P)^2: top zone "dragonfly" (Full) > group zones "grp-<g>" (Full) >
 * router zones "rtr-<g>-<r>" (Full) holding the router netpoint
 * router-<g>-<r>, its P hosts and the routes between them over the terminal
 * links T-g<g>-r<r>-n<j>-up / -down (j: node in the group) and loopbacks;
 * zoneRoutes between router zones over L1-g<g>-r<a>-r<b> (gateways: the
 * routers); zoneRoutes between groups over L2-g<a>-g<b> (gateways: gateway
 * and landing routers).  dragonfly:64,16,4,8 (8192 nodes): 20 MB, written in
 * 0.05 s, loaded in 0.7 s.
 */
#include "platforms/platform.h"
#include "platforms/two_tier_net.h"
#include "sim/contracts/errors.h"

#include <stdio.h>

#define LL(x) ((long long)(x))

static bool dragonfly_parse_shape(const char *fields, cs_net *n, GError **err)
{
  static const char *const names[] = {"G", "A", "H", "P", "C"};
  int64_t v[5] = {0, 0, 0, 0, 1}; /* C defaults to 1 */
  if (!cs_spec_counts("dragonfly", fields, ',', names, 4, 5, v, err))
    return false;
  n->df_g = v[0];
  n->df_a = v[1];
  n->df_h = v[2];
  n->df_p = v[3];
  n->sn = v[0];
  n->nps = cs_net_mul_capped(v[1], v[3]);
  n->cpn = v[4];
  n->p = cs_net_mul_capped(cs_net_mul_capped(n->sn, n->nps), n->cpn);
  if (n->p < 0) {
    g_set_error(err, CS_INPUT_ERROR, 1, "dragonfly:%s: p = G*A*P*C exceeds 2^31-1", fields);
    return false;
  }
  if (n->df_g - 1 > n->df_a * n->df_h) {
    g_set_error(err, CS_INPUT_ERROR, 1,
                "dragonfly:%s: cannot connect every pair of groups with one global link: G-1 = %lld other groups "
                "but only A*H = %lld global ports per group",
                fields, (long long)(n->df_g - 1), (long long)(n->df_a * n->df_h));
    return false;
  }
  return true;
}

/* Global port of group `from` used for group `to` (G groups). */
static int64_t df_port(int64_t g, int64_t from, int64_t to) { return ((to - from) % g + g) % g - 1; }

int64_t cs_net_df_gateway_router(const cs_net *n, int64_t from, int64_t to)
{
  if (n->shape != &cs_net_shape_dragonfly || from < 0 || to < 0 || from >= n->sn || to >= n->sn || from == to)
    return -1;
  return df_port(n->df_g, from, to) / n->df_h;
}

int64_t cs_net_df_landing_router(const cs_net *n, int64_t from, int64_t to)
{
  return cs_net_df_gateway_router(n, to, from);
}

/* The view's wiring: G, H, P. */
static void dragonfly_set_wiring(const cs_net *n, cs_two_tier *t)
{
  t->wiring[1] = n->df_g;
  t->wiring[2] = n->df_h;
  t->wiring[3] = n->df_p;
}

/* The node of group `from` on the router holding the global link to `to`. */
static int64_t dragonfly_gateway(const cs_two_tier *t, int64_t from, int64_t to)
{
  if (from < 0 || to < 0 || from >= t->sn || to >= t->sn || from == to)
    return -1;
  int64_t h = t->wiring[2], p = t->wiring[3];
  int64_t j = df_port(t->wiring[1], from, to);
  return (j / h) * p + (j % h) % p;
}

static void dragonfly_describe(const cs_net *n, GString *s)
{
  g_string_append_printf(s, "dragonfly:%lld,%lld,%lld,%lld,%lld", LL(n->df_g), LL(n->df_a), LL(n->df_h), LL(n->df_p),
                         LL(n->cpn));
}

/* Every ordered pair of routers of a group, and two terminal links per node. */
static void dragonfly_count_links(const cs_net *n, cs_net_link_counts *c)
{
  c->l1 = n->df_g * n->df_a * (n->df_a - 1);
  c->term = 2 * cs_net_nodes(n);
}

static void df_links(cs_net_xml *x)
{
  const cs_net *n = x->n;
  for (int64_t g = 0; g < n->df_g; g++) {
    for (int64_t j = 0; j < n->nps; j++) {
      cs_net_xml_loopback(x, g * n->nps + j);
      for (int up = 1; up >= 0; up--) {
        fprintf(x->f, "      <link id=\"T-g%lld-r%lld-n%lld-%s", LL(g), LL(j / n->df_p), LL(j), up ? "up" : "down");
        cs_net_xml_link_attrs(x, x->term, x->lat, "SHARED", "T");
      }
    }
    for (int64_t a = 0; a < n->df_a; a++)
      for (int64_t b = 0; b < n->df_a; b++)
        if (a != b) {
          fprintf(x->f, "      <link id=\"L1-g%lld-r%lld-r%lld", LL(g), LL(a), LL(b));
          cs_net_xml_link_attrs(x, x->l1, x->lat, "SHARED", "L1");
        }
  }
  for (int64_t a = 0; a < n->df_g; a++)
    for (int64_t b = 0; b < n->df_g; b++)
      if (a != b) {
        fprintf(x->f, "      <link id=\"L2-g%lld-g%lld", LL(a), LL(b));
        cs_net_xml_link_attrs(x, x->l2, x->lat, "SHARED", "L2");
      }
}

static void df_router(cs_net_xml *x, int64_t g, int64_t r)
{
  const cs_net *n = x->n;
  FILE *f = x->f;
  const char *in = "        ";
  int64_t first = r * n->df_p, base = g * n->nps; /* router's first node in the group; group's first node */
  fprintf(f, "      <zone id=\"rtr-%lld-%lld\" routing=\"Full\">\n", LL(g), LL(r));
  for (int64_t k = 0; k < n->df_p; k++)
    cs_net_xml_host(x, in, base + first + k);
  fprintf(f, "%s<router id=\"router-%lld-%lld\"/>\n", in, LL(g), LL(r));
  for (int64_t i = first; i < first + n->df_p; i++) {
    cs_net_xml_loopback_route(x, in, base + i);
    fprintf(f,
            "%s<route src=\"node-%lld\" dst=\"router-%lld-%lld\" symmetrical=\"NO\">"
            "<link_ctn id=\"T-g%lld-r%lld-n%lld-up\"/></route>\n",
            in, LL(base + i), LL(g), LL(r), LL(g), LL(r), LL(i));
    fprintf(f,
            "%s<route src=\"router-%lld-%lld\" dst=\"node-%lld\" symmetrical=\"NO\">"
            "<link_ctn id=\"T-g%lld-r%lld-n%lld-down\"/></route>\n",
            in, LL(g), LL(r), LL(base + i), LL(g), LL(r), LL(i));
    for (int64_t j = first; j < first + n->df_p; j++)
      if (i != j)
        fprintf(f,
                "%s<route src=\"node-%lld\" dst=\"node-%lld\" symmetrical=\"NO\">"
                "<link_ctn id=\"T-g%lld-r%lld-n%lld-up\"/><link_ctn id=\"T-g%lld-r%lld-n%lld-down\"/></route>\n",
                in, LL(base + i), LL(base + j), LL(g), LL(r), LL(i), LL(g), LL(r), LL(j));
  }
  fputs("      </zone>\n", f);
}

static void df_group(cs_net_xml *x, int64_t g)
{
  const cs_net *n = x->n;
  FILE *f = x->f;
  fprintf(f, "    <zone id=\"grp-%lld\" routing=\"Full\">\n", LL(g));
  for (int64_t r = 0; r < n->df_a; r++)
    df_router(x, g, r);
  for (int64_t a = 0; a < n->df_a; a++)
    for (int64_t b = 0; b < n->df_a; b++)
      if (a != b)
        fprintf(f,
                "      <zoneRoute src=\"rtr-%lld-%lld\" dst=\"rtr-%lld-%lld\" gw_src=\"router-%lld-%lld\" "
                "gw_dst=\"router-%lld-%lld\" symmetrical=\"NO\"><link_ctn id=\"L1-g%lld-r%lld-r%lld\"/></zoneRoute>\n",
                LL(g), LL(a), LL(g), LL(b), LL(g), LL(a), LL(g), LL(b), LL(g), LL(a), LL(b));
  fputs("    </zone>\n", f);
}

static void dragonfly_xml(cs_net_xml *x)
{
  const cs_net *n = x->n;
  FILE *f = x->f;
  fputs("  <zone id=\"dragonfly\" routing=\"Full\">\n    <zone id=\"links\" routing=\"Full\">\n", f);
  df_links(x);
  fputs("    </zone>\n", f);
  for (int64_t g = 0; g < n->df_g; g++)
    df_group(x, g);
  for (int64_t a = 0; a < n->df_g; a++)
    for (int64_t b = 0; b < n->df_g; b++)
      if (a != b)
        fprintf(f,
                "    <zoneRoute src=\"grp-%lld\" dst=\"grp-%lld\" gw_src=\"router-%lld-%lld\" "
                "gw_dst=\"router-%lld-%lld\" symmetrical=\"NO\"><link_ctn id=\"L2-g%lld-g%lld\"/></zoneRoute>\n",
                LL(a), LL(b), LL(a), LL(cs_net_df_gateway_router(n, a, b)), LL(b),
                LL(cs_net_df_landing_router(n, a, b)), LL(a), LL(b));
  fputs("  </zone>\n", f);
}

/* ---- the netmap: own links are the L1 links (group g, router a to b:
 * g*A*(A-1) + a*(A-1) + b - (b > a)), then the terminal links (global node
 * x: 2x up, 2x+1 down) ---- */

static int32_t l1_id(const cs_net *n, int64_t g, int64_t a, int64_t b)
{
  return cs_net_own_link_id(n, g * n->df_a * (n->df_a - 1) + a * (n->df_a - 1) + b - (b > a));
}

static int32_t term_id(const cs_net *n, int64_t node, bool up)
{
  return cs_net_own_link_id(n, n->df_g * n->df_a * (n->df_a - 1) + 2 * node + !up);
}

static void dragonfly_own_link(const cs_net *n, int64_t idx, cs_net_link *out)
{
  int64_t l1 = n->df_g * n->df_a * (n->df_a - 1);
  if (idx < l1) {
    int64_t per = n->df_a - 1, g = idx / (n->df_a * per), a = idx / per % n->df_a, b = idx % per;
    b += b >= a;
    g_string_append_printf(out->name, "L1-g%lld-r%lld-r%lld", LL(g), LL(a), LL(b));
    g_string_append_printf(out->src, "router-%lld-%lld", LL(g), LL(a));
    g_string_append_printf(out->dst, "router-%lld-%lld", LL(g), LL(b));
    out->tier = "L1";
    out->bw = n->l1_bw;
    return;
  }
  int64_t node = (idx - l1) / 2, g = node / n->nps, j = node % n->nps, r = j / n->df_p;
  bool up = (idx - l1) % 2 == 0;
  g_string_append_printf(out->name, "T-g%lld-r%lld-n%lld-%s", LL(g), LL(r), LL(j), up ? "up" : "down");
  g_string_append_printf(up ? out->src : out->dst, "node-%lld", LL(node));
  g_string_append_printf(up ? out->dst : out->src, "router-%lld-%lld", LL(g), LL(r));
  out->tier = "T";
  out->bw = n->term_bw;
}

static void dragonfly_l2_ends(const cs_net *n, int64_t a, int64_t b, GString *src, GString *dst)
{
  g_string_append_printf(src, "router-%lld-%lld", LL(a), LL(cs_net_df_gateway_router(n, a, b)));
  g_string_append_printf(dst, "router-%lld-%lld", LL(b), LL(cs_net_df_landing_router(n, a, b)));
}

/* Minimal routing as the XML's zones give it: terminal up, an L1 hop to
 * the gateway router unless it is the node's own, L2, an L1 hop from the
 * landing router unless it is the destination's, terminal down. */
static int dragonfly_route(const cs_net *n, int64_t a, int64_t b, int32_t *out)
{
  int64_t ga = a / n->nps, gb = b / n->nps, ra = a % n->nps / n->df_p, rb = b % n->nps / n->df_p;
  int len = 0;
  out[len++] = term_id(n, a, true);
  if (ga == gb) {
    if (ra != rb)
      out[len++] = l1_id(n, ga, ra, rb);
  } else {
    int64_t gw = cs_net_df_gateway_router(n, ga, gb), land = cs_net_df_landing_router(n, ga, gb);
    if (ra != gw)
      out[len++] = l1_id(n, ga, ra, gw);
    out[len++] = cs_net_l2_link_id(n, ga, gb);
    if (land != rb)
      out[len++] = l1_id(n, gb, land, rb);
  }
  out[len++] = term_id(n, b, false);
  return len;
}

static void dragonfly_levels(const cs_net *n, cs_hierarchy *h, const char **node_tier)
{
  cs_hier_push(h, "group", "L2", n->df_g);
  cs_hier_push(h, "router", "L1", n->df_g * n->df_a);
  *node_tier = "T";
}

const cs_net_shape cs_net_shape_dragonfly = {
    .name = "dragonfly",
    .terminal_links = true,
    .parse = dragonfly_parse_shape,
    .describe = dragonfly_describe,
    .set_wiring = dragonfly_set_wiring,
    .gateway = dragonfly_gateway,
    .count_links = dragonfly_count_links,
    .xml = dragonfly_xml,
    .own_link = dragonfly_own_link,
    .route = dragonfly_route,
    .l2_ends = dragonfly_l2_ends,
    .levels = dragonfly_levels,
};

static bool dragonfly_parse(cs_platform *p, const char *args, GError **err)
{
  return cs_net_family_parse(p, &cs_net_shape_dragonfly, args, err);
}

const cs_platform_family cs_platform_dragonfly = {
    .kind = "dragonfly",
    .synopsis = "dragonfly:G,A,H,P[,C][/bw=..,l1=..,l2=..,term=..,lat=..,loopback=..,loopback_lat=..]",
    .description = "Dragonfly (seed 001): G groups of A routers with H global links and P nodes each, C cores "
                   "per node, minimal routing",
    .params = "bw (sets l1, l2, term; 10GBps), l1, l2, term, lat (100ns), loopback (100GBps), loopback_lat (0s)",
    .examples = (const char *const[]){"dragonfly:4,2,2,1,2", "dragonfly:3,2,1,2,1", NULL},
    .parse = dragonfly_parse,
    .describe = cs_net_family_describe,
    .write_xml = cs_net_family_write,
    .estimate = cs_net_family_estimate,
    .hierarchy = cs_net_family_hierarchy,
    .netmap = cs_net_family_netmap,
    .free_data = g_free,
};
