/* Cost parameters from the platform's routes (see cost_params.h). */
#include "sim/drivers/cost_params.h"
#include "sim/engine/model_factors.h"

#include <math.h>

#define MAX_SOURCES 64

typedef struct deriving {
  const cs_netmap *map;
  cs_route_buf buf;
  const cs_two_tier *tt;
  double lat_factor, bw_factor;
  double *latency, *beta; /* per link: its latency, its seconds per byte (1 / (bandwidth x bw_factor)) */
  int *stamp, *count;     /* per link: the group last counted, routes of that group using it */
  int group;
} deriving;

/* Each link's latency and seconds per byte, asked of the netmap once:
 * the routes below cross millions of links on large platforms. */
static void link_tables(deriving *D)
{
  int64_t n = D->map->nlinks;
  D->latency = g_new(double, n + 1);
  D->beta = g_new(double, n + 1);
  for (int64_t l = 0; l < n; l++) {
    D->latency[l] = D->map->ops->link_latency(D->map, l);
    D->beta[l] = 1.0 / (D->map->ops->link_bandwidth(D->map, l) * D->bw_factor);
  }
}

static double link_beta(const deriving *D, int32_t l) { return D->beta[l]; }

/* Latency and seconds per byte of a route, kept if larger than *lat, *beta. */
static void take_route(const deriving *D, const int32_t *links, int n, double *lat, double *beta)
{
  double sum = 0;
  for (int i = 0; i < n; i++) {
    sum += D->latency[links[i]];
    *beta = fmax(*beta, link_beta(D, links[i]));
  }
  *lat = fmax(*lat, sum * D->lat_factor);
}

/* ---- links common to a group of routes ---- */

static void group_start(deriving *D) { D->group++; }

static void group_add(deriving *D, const int32_t *links, int n)
{
  for (int i = 0; i < n; i++) {
    if (D->stamp[links[i]] != D->group) {
      D->stamp[links[i]] = D->group;
      D->count[links[i]] = 0;
    }
    D->count[links[i]]++;
  }
}

/* The slowest link of `first` (a route of the group) that all `routes`
 * routes of the group take; 0 if none. */
static double group_common_beta(const deriving *D, const int32_t *first, int n, int routes)
{
  double beta = 0;
  for (int i = 0; i < n; i++)
    if (D->stamp[first[i]] == D->group && D->count[first[i]] == routes)
      beta = fmax(beta, link_beta(D, first[i]));
  return beta;
}

/* The slowest link on every route from (to) node 0, the other nodes all. */
static double port_beta(deriving *D, bool out)
{
  int64_t nodes = cs_tt_nodes(D->tt);
  int32_t *first = NULL;
  int nfirst = 0;
  group_start(D);
  for (int64_t g = 1; g < nodes; g++) {
    const int32_t *links;
    int n = cs_netmap_route(D->map, &D->buf, out ? 0 : g, out ? g : 0, &links);
    if (!first) {
      first = g_memdup2(links, sizeof *links * (size_t)(n > 0 ? n : 1));
      nfirst = n;
    }
    group_add(D, links, n);
  }
  double beta = nodes > 1 ? group_common_beta(D, first, nfirst, (int)(nodes - 1)) : 0;
  g_free(first);
  return beta;
}

/* Node i of the sources of supernode 0: all nps, or MAX_SOURCES spread. */
static int64_t source_count(const cs_two_tier *tt) { return tt->nps < MAX_SOURCES ? tt->nps : MAX_SOURCES; }

static int64_t source(const cs_two_tier *tt, int64_t i)
{
  int64_t k = source_count(tt);
  return k < 2 ? 0 : i * (tt->nps - 1) / (k - 1);
}

/* From the sources to every other node: a1 B1 (the nodes of supernode 0)
 * and a2 B2 (the others), the longest and the slowest route; and BL, the
 * slowest link that all the routes to supernode t take, the slowest over
 * t != 0.  One pass over the routes for both (the routes to t are taken
 * once, not once for the levels and once for BL); the maxima do not depend
 * on the order the routes are taken in. */
static void levels(deriving *D, cs_cost_params *c)
{
  const cs_two_tier *tt = D->tt;
  for (int64_t t = 0; t < tt->sn; t++) {
    int lvl = t == 0 ? CS_LVL_NODE : CS_LVL_SUPERNODE;
    int32_t *first = NULL; /* the group's first route */
    int nfirst = 0, routes = 0;
    group_start(D);
    for (int64_t i = 0; i < source_count(tt); i++)
      for (int64_t j = 0; j < tt->nps; j++) {
        int64_t a = source(tt, i), g = t * tt->nps + j;
        if (g == a)
          continue;
        const int32_t *links;
        int n = cs_netmap_route(D->map, &D->buf, a, g, &links);
        take_route(D, links, n, &c->alpha[lvl], &c->beta[lvl]);
        if (t == 0)
          continue;
        if (!first) {
          first = g_memdup2(links, sizeof *links * (size_t)(n > 0 ? n : 1));
          nfirst = n;
        }
        group_add(D, links, n);
        routes++;
      }
    if (t > 0)
      c->beta_l2 = fmax(c->beta_l2, group_common_beta(D, first, nfirst, routes));
    g_free(first);
  }
}

static void gateways(deriving *D, cs_cost_params *c)
{
  const cs_two_tier *tt = D->tt;
  for (int64_t t = 1; t < tt->sn; t++) {
    const int32_t *links;
    int n = cs_netmap_route(D->map, &D->buf, cs_tt_gateway(tt, 0, t), t * tt->nps + cs_tt_landing(tt, 0, t), &links);
    take_route(D, links, n, &c->alpha[CS_LVL_GATEWAY], &c->beta[CS_LVL_GATEWAY]);
  }
}

static void within_node(deriving *D, const cs_engine_config *ec, cs_cost_params *c)
{
  const int32_t *links;
  int n = cs_netmap_route(D->map, &D->buf, 0, 0, &links);
  take_route(D, links, n, &c->alpha[CS_LVL_CORE], &c->beta[CS_LVL_CORE]);
  if (ec->local_copy_bw > 0)
    c->beta[CS_LVL_CORE] = 1.0 / ec->local_copy_bw;
}

void cs_cost_params_derive(cs_cost_params *out, const cs_netmap *map, const cs_two_tier *tt, const cs_engine_config *ec,
                           double gamma, double message_bytes)
{
  *out = (cs_cost_params){.o_send = ec->o_send, .o_recv = ec->o_recv, .gamma = gamma};
  cs_model_factors(ec, message_bytes, &out->lat_factor, &out->bw_factor);
  int64_t nlinks = map->nlinks;
  deriving D = {map, {0}, tt, out->lat_factor, out->bw_factor, NULL, NULL, g_new0(int, nlinks + 1),
                g_new0(int, nlinks + 1), 0};
  link_tables(&D);
  within_node(&D, ec, out);
  levels(&D, out);
  gateways(&D, out);
  out->beta_port = fmax(port_beta(&D, true), port_beta(&D, false));
  g_free(D.latency);
  g_free(D.beta);
  g_free(D.stamp);
  g_free(D.count);
  cs_route_buf_clear(&D.buf);
}
