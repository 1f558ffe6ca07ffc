/* SimGrid 3.32's TORUS <cluster> (sg_cluster_impl.h), as TorusZone builds
 * and routes it, computed from link ids (nothing stored per link: a
 * 64x64x64 torus has 1.8 million links).
 *
 * topo_parameters "d0,d1,...": node n (its position, 0 .. d0*d1*...-1;
 * SimGrid creates that many hosts and ignores further radicals) has
 * coordinate (n / s_j) % d_j in dimension j, s_j = d0*...*d(j-1).  In each
 * dimension it owns the link to its next neighbour (coordinate + 1,
 * wrapping), named "<id>_link_from_<n>_to_<m>" with positions, not
 * radicals (+ "_UP"/"_DOWN" when SPLITDUPLEX): a ring of 2 has both
 * 0->1 and 1->0, a ring of 1 the link from n to n.
 *
 * Routes (TorusZone::get_local_route): either end a router: nothing; a == b
 * with a loopback: the loopback; else dimension by dimension, first to
 * last, step by step.  The direction in dimension j is fixed by a's and b's
 * coordinates m and t there: forward when t > m and t <= m + d/2, or when
 * m > d/2 and (m + d/2) % d >= t (integer d/2); else backward.  So a tie
 * (d even, t exactly d/2 away) goes forward from m < d/2, backward from
 * m = d/2 (and forward again from m > d/2, by the wrap clause).  Forward
 * from node n takes n's own link, UP; backward from n to its previous
 * neighbour p takes p's link, DOWN.  With limiters, each step is preceded
 * by the limiter of the node it leaves, and the route ends with the
 * destination's limiter (also when a == b without a loopback: then the
 * route is that limiter alone; with neither, it is empty).
 *
 * Link ids after the leaf links: node by node, dimension by dimension,
 * (UP, DOWN). */
#include "platforms/sg_cluster_impl.h"
#include "sim/contracts/errors.h"

#include <inttypes.h>

#define MAX_DIMS 9 /* the hierarchy holds 10 levels: 8 dimensions, node, core */

typedef struct torus {
  int ndims;
  int64_t dim[MAX_DIMS], stride[MAX_DIMS];
} torus;

static const torus *torus_of(const cs_sg_cluster *c) { return c->data; }

static bool torus_build(cs_sg_cluster *c, const char *topo_parameters, GError **err)
{
  torus *t = g_new0(torus, 1);
  c->data = t;
  if (!(c->bw > 0)) /* create_torus_zone's own checks (lat >= 0 is checked for every cluster) */
    return cs_input_error(err, "cluster %s: TORUS links need bw > 0", c->id);
  if (!cs_sgc_parse_counts("TORUS topo_parameters", topo_parameters, ',', t->dim, MAX_DIMS, &t->ndims, 1 << 20,
                           err))
    return false;
  int64_t nodes = 1;
  for (int j = 0; j < t->ndims; j++) {
    t->stride[j] = nodes;
    nodes *= t->dim[j];
    if (nodes > c->nhosts)
      return cs_input_error(err, "cluster %s: TORUS %s needs more hosts than the %" PRId64 " of its radical", c->id,
                            topo_parameters, c->nhosts);
  }
  cs_sgc_set_hosts(c, nodes);
  c->nlinks = c->leaf_links + nodes * t->ndims * cs_sgc_links_per_duplex(c);
  return true;
}

static int64_t coord(const torus *t, int64_t n, int j) { return n / t->stride[j] % t->dim[j]; }

static int64_t next_neighbour(const torus *t, int64_t n, int j)
{
  return coord(t, n, j) == t->dim[j] - 1 ? n - (t->dim[j] - 1) * t->stride[j] : n + t->stride[j];
}

static int64_t link_id(const cs_sg_cluster *c, int64_t n, int j, bool up)
{
  int per = cs_sgc_links_per_duplex(c);
  return c->leaf_links + (n * torus_of(c)->ndims + j) * per + (up ? 0 : per - 1);
}

/* The node, dimension and direction of a link. */
static int64_t link_node(const cs_sg_cluster *c, int64_t id, int *j, bool *up)
{
  int per = cs_sgc_links_per_duplex(c);
  int64_t k = id - c->leaf_links;
  *up = k % per == 0;
  k /= per;
  *j = (int)(k % torus_of(c)->ndims);
  return k / torus_of(c)->ndims;
}

static void torus_link_name(const cs_sg_cluster *c, int64_t id, GString *out)
{
  int j;
  bool up;
  int64_t n = link_node(c, id, &j, &up);
  g_string_append_printf(out, "%s_link_from_%" PRId64 "_to_%" PRId64, c->id, n, next_neighbour(torus_of(c), n, j));
  cs_sgc_direction_suffix(c, up, out);
}

static int torus_link_tier(const cs_sg_cluster *c, int64_t id)
{
  int j;
  bool up;
  link_node(c, id, &j, &up);
  return j;
}

static bool torus_link_ends(const cs_sg_cluster *c, int64_t id, GString *src, GString *dst)
{
  int j;
  bool up;
  int64_t n = link_node(c, id, &j, &up), m = next_neighbour(torus_of(c), n, j);
  cs_sgc_host_name(c, up ? n : m, src);
  cs_sgc_host_name(c, up ? m : n, dst);
  return true;
}

static double torus_link_bandwidth(const cs_sg_cluster *c, int64_t id)
{
  (void)id;
  return c->bw;
}

static double torus_link_latency(const cs_sg_cluster *c, int64_t id)
{
  (void)id;
  return c->lat;
}

/* TorusZone's choice of direction in a dimension of size d, from source
 * coordinate m to target coordinate t (m != t). */
static bool goes_forward(int64_t m, int64_t t, int64_t d)
{
  return (t > m && t <= m + d / 2) || (m > d / 2 && (m + d / 2) % d >= t);
}

static int torus_route(const cs_sg_cluster *c, int64_t a, int64_t b, int32_t *links, int cap)
{
  const torus *t = torus_of(c);
  int n = 0;
  if (a == CS_SGC_ROUTER || b == CS_SGC_ROUTER) /* a torus has no router */
    return 0;
  if (a == b && c->has_loopback) {
    cs_sgc_push(links, cap, &n, cs_sgc_loopback_id(c, a));
    return n;
  }
  int64_t cur = a;
  for (int j = 0; j < t->ndims; j++) {
    int64_t pos = coord(t, a, j), target = coord(t, b, j), d = t->dim[j], stride = t->stride[j];
    bool forward = pos != target && goes_forward(pos, target, d);
    while (pos != target) { /* one step: pos and cur move together */
      if (c->has_limiter)
        cs_sgc_push(links, cap, &n, cs_sgc_limiter_id(c, cur));
      if (forward) {
        cs_sgc_push(links, cap, &n, link_id(c, cur, j, true));
        cur += pos == d - 1 ? -(d - 1) * stride : stride;
        pos = pos == d - 1 ? 0 : pos + 1;
      } else {
        cur += pos == 0 ? (d - 1) * stride : -stride;
        pos = pos == 0 ? d - 1 : pos - 1;
        cs_sgc_push(links, cap, &n, link_id(c, cur, j, false));
      }
    }
  }
  if (c->has_limiter)
    cs_sgc_push(links, cap, &n, cs_sgc_limiter_id(c, b));
  return n;
}

static const char *const dim_tiers[MAX_DIMS] = {"X", "Y", "Z", "D3", "D4", "D5", "D6", "D7", "D8"};

static int torus_tiers(const cs_sg_cluster *c, const char **names, int max)
{
  int n = 0;
  for (int j = 0; j < torus_of(c)->ndims && n < max; j++)
    names[n++] = dim_tiers[j];
  return cs_sgc_leaf_tiers(c, names, n, max);
}

/* One level per dimension, the last on top; the first dimension's level is
 * the node level.  Node n lies in entity n / s_j of dimension j's level:
 * the regular nesting. */
static void torus_hierarchy(const cs_sg_cluster *c, int64_t cores, cs_hierarchy *out)
{
  const torus *t = torus_of(c);
  for (int j = t->ndims - 1; j >= 1; j--)
    cs_hier_push(out, dim_tiers[j], dim_tiers[j], c->nhosts / t->stride[j]);
  cs_hier_finish(out, c->nhosts, cores, dim_tiers[0]);
}

const cs_sgc_topology cs_sgc_torus = {
    .name = "TORUS",
    .build = torus_build,
    .link_name = torus_link_name,
    .link_tier = torus_link_tier,
    .link_ends = torus_link_ends,
    .link_bandwidth = torus_link_bandwidth,
    .link_latency = torus_link_latency,
    .route = torus_route,
    .tiers = torus_tiers,
    .hierarchy = torus_hierarchy,
};
