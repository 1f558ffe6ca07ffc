/* SimGrid 3.32's DRAGONFLY clusters (sg_cluster_impl.h): the links
 * SimGrid's DragonflyZone creates and the minimal routes its
 * get_local_route takes, computed from the topology's arithmetic.
 *
 * topo_parameters "G,nb;C,nk;B,ng;P": G groups joined pairwise by a blue
 * link worth nb links, C chassis per group joined by black links worth nk,
 * B routers (blades) per chassis joined by green links worth ng, P hosts
 * per router.  Host h (its position) sits on router r = h / P, the router
 * of group r / (C B), chassis r / B mod C, blade r mod B.  SimGrid creates
 * G C B P hosts from the radical (ignoring its extra hosts, aborting when it
 * has too few).
 *
 * What SimGrid does (src/kernel/routing/DragonflyZone.cpp, v3.32):
 *  - links, numbered n = 0, 1, ... in creation order, each "<name>_<n>"
 *    (+ "_UP"/"_DOWN" when SPLITDUPLEX, else one link for both ways):
 *      local_link_from_router_<r>_to_node_<p>       per router r, host p of it (bw)
 *      green_link_in_chassis_<c>_between_routers_<j>_and_<k>   per chassis
 *            (all groups, c: its number inside the group), j < k (bw * ng)
 *      black_link_in_group_<g>_between_chassis_<j>_and_<k>_blade_<l>   j < k, then l (bw * nk)
 *      blue_link_between_group_<i>_and_<j>_routers_<a>_and_<b>   i < j,
 *            a = i C B + j, b = j C B + i (router j of group i and i of group j) (bw * nb)
 *    _UP goes from the lower-numbered end (router j, chassis j, group i) to
 *    the higher, _DOWN back; the local _UP from host to router;
 *  - minimal routing from host a to host b: a's limiter, a's local up link;
 *    if the routers differ: [other group: to blade <b's group> of a's
 *    chassis (green), to chassis 0 (black), across (blue) to router
 *    <a's group> of chassis 0 of b's group]; then to b's blade (green)
 *    LANDING ON CHASSIS 0 of b's group whatever chassis it left (SimGrid
 *    sets the current router so), then to b's chassis (black) if that one
 *    differs; b's router's limiter, b's local down link, b's limiter.  A
 *    router's limiter precedes each green or black hop it sends on and
 *    follows its blue hop;
 *  - a host to itself: its loopback if the cluster has loopbacks, else the
 *    route above (up to its router and down);
 *  - router limiters "<id>_link_<n>_limiter", n = 2 hosts - 1 - router.
 *  SimGrid reaches routers by index: a route to group g uses the green link
 *  to blade g, so G <= B or SimGrid reads past its arrays: refused.
 *
 * Tiers: blue, black, green, local, then the leaf tiers.  Hierarchy:
 * group, chassis, router, node (levels that hold one entity, or the same
 * entities as the level above, left out).
 */
#include "platforms/sg_cluster_impl.h"
#include "sim/contracts/errors.h"

#include <string.h>

typedef enum df_kind { DF_LOCAL, DF_GREEN, DF_BLACK, DF_BLUE } df_kind;

typedef struct dragonfly {
  int64_t groups, chassis, blades, per_router; /* G, C, B, P */
  int64_t blue_links, black_links, green_links; /* nb, nk, ng */
  int64_t routers;
  int64_t base[DF_BLUE + 2]; /* first serial of each kind; base[DF_BLUE + 1]: all */
  int64_t first_link, first_limiter_link;
  int lpd; /* links per serial: 2 (SPLITDUPLEX) or 1 */
} dragonfly;

static const dragonfly *df_of(const cs_sg_cluster *c) { return c->data; }

static int64_t pairs(int64_t n) { return n * (n - 1) / 2; }

/* Index of the pair j < k among the pairs of n, in SimGrid's loop order. */
static int64_t pair_index(int64_t n, int64_t j, int64_t k) { return j * n - j * (j + 1) / 2 + (k - j - 1); }

static void pair_at(int64_t n, int64_t index, int64_t *j, int64_t *k)
{
  int64_t a = 0;
  while (index >= n - 1 - a) {
    index -= n - 1 - a;
    a++;
  }
  *j = a;
  *k = a + 1 + index;
}

/* ---- links ---- */

static int64_t link_of(const dragonfly *t, int64_t serial, bool up)
{
  return t->first_link + serial * t->lpd + (t->lpd == 2 && !up ? 1 : 0);
}

static int64_t router_limiter(const cs_sg_cluster *c, int64_t r)
{
  return c->has_limiter ? df_of(c)->first_limiter_link + r : -1;
}

static bool is_router_limiter(const cs_sg_cluster *c, int64_t id)
{
  return c->has_limiter && id >= df_of(c)->first_limiter_link;
}

static df_kind kind_of(const dragonfly *t, int64_t serial)
{
  df_kind k = DF_LOCAL;
  while (k < DF_BLUE && serial >= t->base[k + 1])
    k++;
  return k;
}

static int64_t serial_of(const dragonfly *t, int64_t id) { return (id - t->first_link) / t->lpd; }

static bool is_up(const dragonfly *t, int64_t id) { return t->lpd == 1 || (id - t->first_link) % 2 == 0; }

/* A link's ends as router numbers (local: the router and the host's
 * position in *hi). */
typedef struct df_link {
  df_kind kind;
  int64_t serial, lo, hi; /* lo -> hi is the _UP direction */
  int64_t chassis, group, blade, j, k;
} df_link;

static df_link decode(const dragonfly *t, int64_t serial)
{
  df_link d;
  memset(&d, 0, sizeof d);
  d.kind = kind_of(t, serial);
  d.serial = serial;
  int64_t x = serial - t->base[d.kind];
  int64_t cb = t->chassis * t->blades;
  switch (d.kind) {
  case DF_LOCAL:
    d.lo = x; /* the host */
    d.hi = x / t->per_router;
    d.j = x % t->per_router;
    break;
  case DF_GREEN:
    d.chassis = x / pairs(t->blades); /* over all groups */
    pair_at(t->blades, x % pairs(t->blades), &d.j, &d.k);
    d.lo = d.chassis * t->blades + d.j;
    d.hi = d.chassis * t->blades + d.k;
    break;
  case DF_BLACK:
    d.group = x / (pairs(t->chassis) * t->blades);
    x %= pairs(t->chassis) * t->blades;
    d.blade = x % t->blades;
    pair_at(t->chassis, x / t->blades, &d.j, &d.k);
    d.lo = d.group * cb + d.j * t->blades + d.blade;
    d.hi = d.group * cb + d.k * t->blades + d.blade;
    break;
  case DF_BLUE:
    pair_at(t->groups, x, &d.j, &d.k);
    d.lo = d.j * cb + d.k;
    d.hi = d.k * cb + d.j;
    break;
  }
  return d;
}

static void df_link_name(const cs_sg_cluster *c, int64_t id, GString *out)
{
  const dragonfly *t = df_of(c);
  if (is_router_limiter(c, id)) {
    cs_sgc_limiter_name(c, (uint64_t)(2 * c->nhosts - 1 - (id - t->first_limiter_link)), out);
    return;
  }
  df_link d = decode(t, serial_of(t, id));
  long long s = (long long)d.serial;
  switch (d.kind) {
  case DF_LOCAL:
    g_string_append_printf(out, "local_link_from_router_%lld_to_node_%lld_%lld", (long long)d.hi, (long long)d.j, s);
    break;
  case DF_GREEN:
    g_string_append_printf(out, "green_link_in_chassis_%lld_between_routers_%lld_and_%lld_%lld",
                           (long long)(d.chassis % t->chassis), (long long)d.j, (long long)d.k, s);
    break;
  case DF_BLACK:
    g_string_append_printf(out, "black_link_in_group_%lld_between_chassis_%lld_and_%lld_blade_%lld_%lld",
                           (long long)d.group, (long long)d.j, (long long)d.k, (long long)d.blade, s);
    break;
  case DF_BLUE:
    g_string_append_printf(out, "blue_link_between_group_%lld_and_%lld_routers_%lld_and_%lld_%lld", (long long)d.j,
                           (long long)d.k, (long long)d.lo, (long long)d.hi, s);
    break;
  }
  if (t->lpd == 2)
    cs_sgc_direction_suffix(c, is_up(t, id), out);
}

static int df_link_tier(const cs_sg_cluster *c, int64_t id)
{
  const dragonfly *t = df_of(c);
  if (is_router_limiter(c, id))
    return c->limiter_tier;
  return DF_BLUE - kind_of(t, serial_of(t, id)); /* tiers: blue, black, green, local */
}

static void router_name(const cs_sg_cluster *c, int64_t r, GString *out)
{
  g_string_append_printf(out, "%s_router_%lld", c->id, (long long)r);
}

static bool df_link_ends(const cs_sg_cluster *c, int64_t id, GString *src, GString *dst)
{
  const dragonfly *t = df_of(c);
  if (is_router_limiter(c, id)) { /* sits at its router */
    router_name(c, id - t->first_limiter_link, src);
    router_name(c, id - t->first_limiter_link, dst);
    return true;
  }
  if (t->lpd == 1)
    return false;
  df_link d = decode(t, serial_of(t, id));
  bool up = is_up(t, id);
  int64_t from = up ? d.lo : d.hi, to = up ? d.hi : d.lo;
  if (d.kind == DF_LOCAL) {
    (up ? cs_sgc_host_name : router_name)(c, from, src);
    (up ? router_name : cs_sgc_host_name)(c, to, dst);
  } else {
    router_name(c, from, src);
    router_name(c, to, dst);
  }
  return true;
}

static double df_link_bandwidth(const cs_sg_cluster *c, int64_t id)
{
  const dragonfly *t = df_of(c);
  if (is_router_limiter(c, id))
    return c->limiter_bw;
  static const int64_t one = 1;
  const int64_t *mult[] = {&one, &t->green_links, &t->black_links, &t->blue_links};
  return c->bw * (double)*mult[kind_of(t, serial_of(t, id))];
}

static double df_link_latency(const cs_sg_cluster *c, int64_t id)
{
  return is_router_limiter(c, id) ? 0.0 : c->lat;
}

/* ---- routes ---- */

typedef struct df_router {
  int64_t group, chassis, blade;
} df_router;

static int64_t router_index(const dragonfly *t, df_router r)
{
  return (r.group * t->chassis + r.chassis) * t->blades + r.blade;
}

static df_router router_of_host(const dragonfly *t, int64_t h)
{
  int64_t r = h / t->per_router;
  return (df_router){r / (t->chassis * t->blades), r / t->blades % t->chassis, r % t->blades};
}

/* The link from x to y of a full mesh of n (green: blades, black: chassis, blue: groups). */
static int64_t green_hop(const dragonfly *t, df_router r, int64_t to_blade)
{
  int64_t lo = r.blade < to_blade ? r.blade : to_blade, hi = r.blade ^ to_blade ^ lo;
  int64_t chassis = r.group * t->chassis + r.chassis;
  return link_of(t, t->base[DF_GREEN] + chassis * pairs(t->blades) + pair_index(t->blades, lo, hi), r.blade == lo);
}

static int64_t black_hop(const dragonfly *t, df_router r, int64_t to_chassis)
{
  int64_t lo = r.chassis < to_chassis ? r.chassis : to_chassis, hi = r.chassis ^ to_chassis ^ lo;
  int64_t serial = t->base[DF_BLACK] + r.group * pairs(t->chassis) * t->blades +
                   pair_index(t->chassis, lo, hi) * t->blades + r.blade;
  return link_of(t, serial, r.chassis == lo);
}

static int64_t blue_hop(const dragonfly *t, int64_t from_group, int64_t to_group)
{
  int64_t lo = from_group < to_group ? from_group : to_group, hi = from_group ^ to_group ^ lo;
  return link_of(t, t->base[DF_BLUE] + pair_index(t->groups, lo, hi), from_group == lo);
}

static void push_router_limiter(const cs_sg_cluster *c, df_router r, int32_t *links, int cap, int *len)
{
  int64_t lim = router_limiter(c, router_index(df_of(c), r));
  if (lim >= 0)
    cs_sgc_push(links, cap, len, lim);
}

/* From router cur (in a's group) across to b's group: returns the router it lands on. */
static df_router cross_groups(const cs_sg_cluster *c, df_router cur, int64_t to_group, int32_t *links, int cap,
                              int *len)
{
  const dragonfly *t = df_of(c);
  if (cur.blade != to_group) {
    push_router_limiter(c, cur, links, cap, len);
    cs_sgc_push(links, cap, len, green_hop(t, cur, to_group));
    cur.blade = to_group;
  }
  if (cur.chassis != 0) {
    push_router_limiter(c, cur, links, cap, len);
    cs_sgc_push(links, cap, len, black_hop(t, cur, 0));
    cur.chassis = 0;
  }
  cs_sgc_push(links, cap, len, blue_hop(t, cur.group, to_group));
  push_router_limiter(c, cur, links, cap, len);
  return (df_router){to_group, 0, cur.group};
}

static int df_route(const cs_sg_cluster *c, int64_t a, int64_t b, int32_t *links, int cap)
{
  const dragonfly *t = df_of(c);
  int len = 0;
  if (a == CS_SGC_ROUTER || b == CS_SGC_ROUTER)
    return 0;
  if (a == b && c->has_loopback) {
    cs_sgc_push(links, cap, &len, cs_sgc_loopback_id(c, a));
    return len;
  }
  df_router src = router_of_host(t, a), dst = router_of_host(t, b), cur = src;
  if (c->has_limiter)
    cs_sgc_push(links, cap, &len, cs_sgc_limiter_id(c, a));
  cs_sgc_push(links, cap, &len, link_of(t, t->base[DF_LOCAL] + a, true));
  if (router_index(t, src) != router_index(t, dst)) {
    if (dst.group != cur.group)
      cur = cross_groups(c, cur, dst.group, links, cap, &len);
    if (dst.blade != cur.blade) {
      push_router_limiter(c, cur, links, cap, &len);
      cs_sgc_push(links, cap, &len, green_hop(t, cur, dst.blade));
      cur = (df_router){dst.group, 0, dst.blade}; /* SimGrid lands on chassis 0 */
    }
    if (dst.chassis != cur.chassis) {
      push_router_limiter(c, cur, links, cap, &len);
      cs_sgc_push(links, cap, &len, black_hop(t, cur, dst.chassis));
    }
  }
  push_router_limiter(c, dst, links, cap, &len);
  cs_sgc_push(links, cap, &len, link_of(t, t->base[DF_LOCAL] + b, false));
  if (c->has_limiter)
    cs_sgc_push(links, cap, &len, cs_sgc_limiter_id(c, b));
  return len;
}

/* ---- tiers, hierarchy ---- */

static int df_tiers(const cs_sg_cluster *c, const char **names, int max)
{
  static const char *const own[] = {"blue", "black", "green", "local"};
  int n = 0;
  for (; n < 4 && n < max; n++)
    names[n] = own[n];
  return cs_sgc_leaf_tiers(c, names, n, max);
}

/* group > chassis > router > node, leaving out a level of one entity or of
 * the same entities as the level above (the node level takes the tier of a
 * level it coincides with). */
static void df_hierarchy(const cs_sg_cluster *c, int64_t cores, cs_hierarchy *out)
{
  const dragonfly *t = df_of(c);
  const char *name[] = {"group", "chassis", "router"}, *tier[] = {"blue", "black", "green"};
  int64_t count[] = {t->groups, t->groups * t->chassis, t->routers};
  int kept[3], nkept = 0;
  for (int i = 0; i < 3; i++)
    if (count[i] > 1 && (nkept == 0 || count[kept[nkept - 1]] != count[i]))
      kept[nkept++] = i;
  const char *node_tier = "local";
  if (nkept > 0 && count[kept[nkept - 1]] == c->nhosts)
    node_tier = tier[kept[--nkept]];
  for (int i = 0; i < nkept; i++)
    cs_hier_push(out, name[kept[i]], tier[kept[i]], count[kept[i]]);
  cs_hier_finish(out, c->nhosts, cores, node_tier);
}

/* ---- building ---- */

/* "n,links" (pair) or "n" (the hosts per router). */
static bool parse_part(const cs_sg_cluster *c, const char *what, const char *text, int want, int64_t *v, GError **err)
{
  int n = 0;
  char *where = g_strdup_printf("cluster %s: DRAGONFLY %s", c->id, what);
  bool ok = cs_sgc_parse_counts(where, text, ',', v, 2, &n, INT32_MAX, err);
  g_free(where);
  if (!ok)
    return false;
  if (n != want)
    return cs_input_error(err, "cluster %s: DRAGONFLY topo_parameters: %s: want %s", c->id, what,
                          want == 2 ? "two numbers 'count,links'" : "one number");
  return true;
}

static bool parse_topology(const cs_sg_cluster *c, dragonfly *t, const char *text, GError **err)
{
  char **part = g_strsplit(text ? text : "", ";", -1);
  bool ok = g_strv_length(part) == 4;
  if (!ok)
    cs_input_error(err, "cluster %s: DRAGONFLY topo_parameters '%s': want 'groups,blue;chassis,black;routers,green;"
                   "nodes'", c->id, text ? text : "");
  int64_t v[2];
  ok = ok && parse_part(c, "groups", part[0], 2, v, err);
  if (ok)
    t->groups = v[0], t->blue_links = v[1];
  ok = ok && parse_part(c, "chassis", part[1], 2, v, err);
  if (ok)
    t->chassis = v[0], t->black_links = v[1];
  ok = ok && parse_part(c, "routers", part[2], 2, v, err);
  if (ok)
    t->blades = v[0], t->green_links = v[1];
  ok = ok && parse_part(c, "nodes", part[3], 1, v, err);
  if (ok)
    t->per_router = v[0];
  g_strfreev(part);
  return ok;
}

static bool size_dragonfly(cs_sg_cluster *c, dragonfly *t, GError **err)
{
  double hosts = (double)t->groups * (double)t->chassis * (double)t->blades * (double)t->per_router;
  if (hosts > (double)INT32_MAX)
    return cs_input_error(err, "cluster %s: DRAGONFLY: too many hosts", c->id);
  if ((int64_t)hosts > c->nhosts)
    return cs_input_error(err, "cluster %s: DRAGONFLY topo_parameters give %.0f hosts, the radical only %lld", c->id,
                          hosts, (long long)c->nhosts);
  cs_sgc_set_hosts(c, (int64_t)hosts); /* SimGrid ignores the radical's extra hosts */
  if (t->groups > t->blades)
    return cs_input_error(err, "cluster %s: DRAGONFLY with more groups (%lld) than routers per chassis (%lld): "
                          "SimGrid's routing reaches group g through router g of a chassis",
                          c->id, (long long)t->groups, (long long)t->blades);
  t->routers = t->groups * t->chassis * t->blades;
  t->base[DF_LOCAL] = 0;
  t->base[DF_GREEN] = c->nhosts;
  t->base[DF_BLACK] = t->base[DF_GREEN] + t->groups * t->chassis * pairs(t->blades);
  t->base[DF_BLUE] = t->base[DF_BLACK] + t->groups * pairs(t->chassis) * t->blades;
  t->base[DF_BLUE + 1] = t->base[DF_BLUE] + pairs(t->groups);
  t->lpd = cs_sgc_links_per_duplex(c);
  t->first_link = c->leaf_links;
  t->first_limiter_link = t->first_link + t->base[DF_BLUE + 1] * t->lpd;
  c->nlinks = t->first_limiter_link + (c->has_limiter ? t->routers : 0);
  if (c->nlinks > INT32_MAX)
    return cs_input_error(err, "cluster %s: DRAGONFLY: too many links", c->id);
  return true;
}

static bool df_build(cs_sg_cluster *c, const char *topo_parameters, GError **err)
{
  dragonfly *t = g_new0(dragonfly, 1);
  c->data = t;
  if (!(c->bw > 0))
    return cs_input_error(err, "cluster %s: DRAGONFLY needs bw > 0 (SimGrid refuses it)", c->id);
  return parse_topology(c, t, topo_parameters, err) && size_dragonfly(c, t, err);
}

const cs_sgc_topology cs_sgc_dragonfly = {
    .name = "DRAGONFLY",
    .build = df_build,
    .link_name = df_link_name,
    .link_tier = df_link_tier,
    .link_ends = df_link_ends,
    .link_bandwidth = df_link_bandwidth,
    .link_latency = df_link_latency,
    .route = df_route,
    .tiers = df_tiers,
    .hierarchy = df_hierarchy,
    .free_data = g_free,
};
