/* SimGrid 3.32's flat <cluster> (sg_cluster_impl.h): what
 * sg_platf_new_cluster_flat builds, a StarZone.  Each host h (radical r)
 * gets a private link "<id>_link_<r>" (SPLITDUPLEX: "<id>_link_<r>_UP" and
 * "_DOWN"; SHARED and FATPIPE: one link), the cluster an optional backbone
 * "<id>_backbone" and a router (router_id, else "<prefix><id>_router<suffix>").
 *
 * Routes, as StarZone::get_local_route gives them:
 *   a == b with a loopback: the loopback alone;
 *   else the links up from a then the links down to b, a link already in
 *   the route not repeated:
 *     up from a host:   [limiter] private_UP [backbone]
 *     down to a host:   [backbone] private_DOWN [limiter]
 *     the router:       nothing either way (it stands on the backbone).
 * So a host's route to itself without a loopback is not empty: it goes up
 * and back down its private link (one SHARED link: once).
 *
 * Link ids after the leaf links: the private links host by host (UP, DOWN),
 * then the backbone. */
#include "platforms/sg_cluster_impl.h"

enum { TIER_CLUSTER, TIER_BACKBONE };

static int64_t private_id(const cs_sg_cluster *c, int64_t h, bool up)
{
  return c->leaf_links + h * cs_sgc_links_per_duplex(c) + (up ? 0 : cs_sgc_links_per_duplex(c) - 1);
}

static int64_t backbone_id(const cs_sg_cluster *c) { return c->leaf_links + c->nhosts * cs_sgc_links_per_duplex(c); }

static bool is_backbone(const cs_sg_cluster *c, int64_t id) { return c->has_backbone && id == backbone_id(c); }

/* The host of a private link, and whether it is the UP one. */
static int64_t private_host(const cs_sg_cluster *c, int64_t id, bool *up)
{
  int64_t k = id - c->leaf_links;
  *up = k % cs_sgc_links_per_duplex(c) == 0;
  return k / cs_sgc_links_per_duplex(c);
}

static bool flat_build(cs_sg_cluster *c, const char *topo_parameters, GError **err)
{
  (void)topo_parameters; /* SimGrid ignores it for a flat cluster */
  (void)err;
  c->limiter_by_radical = true;
  c->nlinks = backbone_id(c) + (c->has_backbone ? 1 : 0);
  return true;
}

static void flat_link_name(const cs_sg_cluster *c, int64_t id, GString *out)
{
  if (is_backbone(c, id)) {
    g_string_append_printf(out, "%s_backbone", c->id);
    return;
  }
  bool up;
  int64_t h = private_host(c, id, &up);
  g_string_append_printf(out, "%s_link_%" G_GINT64_FORMAT, c->id, c->radical[h]);
  cs_sgc_direction_suffix(c, up, out);
}

static int flat_link_tier(const cs_sg_cluster *c, int64_t id)
{
  return is_backbone(c, id) ? TIER_BACKBONE : TIER_CLUSTER;
}

static bool flat_link_ends(const cs_sg_cluster *c, int64_t id, GString *src, GString *dst)
{
  if (is_backbone(c, id)) {
    g_string_append(src, c->router);
    g_string_append(dst, c->router);
    return true;
  }
  bool up;
  int64_t h = private_host(c, id, &up);
  if (up) {
    cs_sgc_host_name(c, h, src);
    g_string_append(dst, c->router);
  } else {
    g_string_append(src, c->router);
    cs_sgc_host_name(c, h, dst);
  }
  return true;
}

static double flat_link_bandwidth(const cs_sg_cluster *c, int64_t id) { return is_backbone(c, id) ? c->bb_bw : c->bw; }

static double flat_link_latency(const cs_sg_cluster *c, int64_t id) { return is_backbone(c, id) ? c->bb_lat : c->lat; }

/* The links up from h (dir up) or down to h, at most 3. */
static int star_links(const cs_sg_cluster *c, int64_t h, bool up, int64_t *out)
{
  int n = 0;
  if (h == CS_SGC_ROUTER)
    return 0;
  if (!up && c->has_backbone)
    out[n++] = backbone_id(c);
  if (up && c->has_limiter)
    out[n++] = cs_sgc_limiter_id(c, h);
  out[n++] = private_id(c, h, up);
  if (!up && c->has_limiter)
    out[n++] = cs_sgc_limiter_id(c, h);
  if (up && c->has_backbone)
    out[n++] = backbone_id(c);
  return n;
}

static bool among(const int64_t *ids, int n, int64_t id)
{
  for (int i = 0; i < n; i++)
    if (ids[i] == id)
      return true;
  return false;
}

static int flat_route(const cs_sg_cluster *c, int64_t a, int64_t b, int32_t *links, int cap)
{
  int n = 0;
  if (a == b && a != CS_SGC_ROUTER && c->has_loopback) {
    cs_sgc_push(links, cap, &n, cs_sgc_loopback_id(c, a));
    return n;
  }
  int64_t up[3], down[3];
  int nup = star_links(c, a, true, up), ndown = star_links(c, b, false, down);
  for (int i = 0; i < nup; i++)
    cs_sgc_push(links, cap, &n, up[i]);
  for (int i = 0; i < ndown; i++)
    if (!among(up, nup, down[i]))
      cs_sgc_push(links, cap, &n, down[i]);
  return n;
}

static int flat_tiers(const cs_sg_cluster *c, const char **names, int max)
{
  int n = 0;
  names[n++] = "cluster";
  if (c->has_backbone)
    names[n++] = "backbone";
  return cs_sgc_leaf_tiers(c, names, n, max);
}

static void flat_hierarchy(const cs_sg_cluster *c, int64_t cores, cs_hierarchy *out)
{
  cs_hier_finish(out, c->nhosts, cores, "cluster");
}

const cs_sgc_topology cs_sgc_flat = {
    .name = "FLAT",
    .build = flat_build,
    .link_name = flat_link_name,
    .link_tier = flat_link_tier,
    .link_ends = flat_link_ends,
    .link_bandwidth = flat_link_bandwidth,
    .link_latency = flat_link_latency,
    .route = flat_route,
    .tiers = flat_tiers,
    .hierarchy = flat_hierarchy,
};
