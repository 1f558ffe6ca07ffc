/* collsim's own router for a user's SimGrid 3.32 platform file
 * (xml_routes.h): the routes sg_host_get_route gives, computed the way
 * SimGrid 3.32 computes them, read in its sources (src/kernel/routing/):
 *
 *  - NetZoneImpl::get_global_route: the two netpoints' englobing zones up
 *    to the root, the first zones that differ (src_ancestor, dst_ancestor)
 *    under the common ancestor; a bypass route of the common ancestor if
 *    any (get_bypass_route: between the two netpoints when both lie in it,
 *    else between zones of the two paths, nearest first); else, in one
 *    zone, its local route; else the common ancestor's route between the
 *    two ancestors' netpoints, whose gateways must be set ("Bad
 *    gateways"), preceded by the route from src to gw_src and followed by
 *    the route from gw_dst to dst, recursively.
 *  - Full: the declared routes; a symmetrical route's reverse has its
 *    links in reverse order, each split-duplex hop on the other half (UP
 *    <-> DOWN), and swapped gateways.  None: no route.
 *  - Floyd: costs = links per route, Floyd-Warshall over the zone's
 *    vertices (creation order) with a strict < (the first intermediate
 *    vertex found wins a tie); route pieces from the source on; in a zone
 *    with sub-zones, the route between one piece's gw_dst and the next
 *    one's gw_src (when their names differ) goes between them.
 *  - Dijkstra, DijkstraCache: graph nodes in order of first appearance in
 *    the routes, out-edges in declaration order (the reverse of a
 *    symmetrical route right after it), a priority queue of (cost, node)
 *    taken smallest first, relaxation with a strict < in unsigned
 *    arithmetic (SimGrid's overflow on unreachable nodes included), and
 *    each hop's links inserted at the FRONT of the route, reversed
 *    (insert_link_latency): a hop of several links comes out backwards,
 *    and a Dijkstra zone reached at the end of a longer route puts its
 *    links first.
 *  - Loopback: a Full, Floyd or Dijkstra zone without sub-zones gives each
 *    of its vertices without a route to itself SimGrid's internal link
 *    "__loopback__" (10 GBps, 0 s: network/loopback-bw and -lat); a zone
 *    with sub-zones gives none.
 *  - <cluster> zones route through platforms/sg_cluster.h.
 * A host whose route to itself has no link (a torus host without loopback
 * links) gets "__loopback__" (SimGrid would refuse to send; sg_cluster's
 * netmap does the same).
 * Where SimGrid aborts or crashes (no route, a route between two zones
 * without gateways, a Dijkstra route through gateways that do not meet, a
 * netpoint outside the zone asked) the route is -1.
 *
 * Tiers of the file's links, first rule that applies:
 *   1. the link's <prop id="tier" value="NAME"/>;
 *   2. a cluster's link: sg_cluster's tier ("cluster", "backbone", ...);
 *   3. "zone<D>": D is the smallest depth of a zone whose routes (route,
 *      zoneRoute, bypass) take the link, the file's top zone being depth 1
 *      ("zone1": the links between the children of the top zone);
 *   4. "?" for a link no route takes.
 * "__loopback__": "intra".  Tiers are listed by depth, then the clusters'
 * tiers (cluster after cluster, each in sg_cluster's order), then "?",
 * then "intra".
 *
 * Hierarchy (cs_xml_routes_hierarchy): a level "zone<D>" for each depth D
 * at which every host lies in a zone of depth D and there are at least two
 * such zones (tier: "zone<D-1>", the links joining them inside their
 * parents); then, when every host is in a <cluster> and all those clusters
 * have the same levels, the clusters' own levels (sg_cluster's, numbered
 * cluster after cluster); then node (tier: the clusters' node tier, or
 * "zone<D>" when every host lies directly in a zone of depth D and none in
 * a cluster, else "")
 * and core.  Indices come from a table: entities numbered in order of
 * their first host.
 */
#include "platforms/xml_routes.h"
#include "platforms/sg_cluster.h"
#include "platforms/xml_model.h"
#include "sim/contracts/errors.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RECURSION 256   /* gateway recursion deeper than this: no route */
#define LOOPBACK_BW 10e9    /* SimGrid's network/loopback-bw default */
#define LOOPBACK_LAT 0.0    /* network/loopback-lat */
#define LOOPBACK_NAME "__loopback__"

/* A route of a zone: gateways (netpoints, -1: none) and links. */
typedef struct zroute {
  int gw_src, gw_dst;
  int n;
  int32_t *links;
} zroute;

typedef enum { K_FULL, K_NONE, K_FLOYD, K_DIJKSTRA, K_CLUSTER } zkind;

typedef struct dj_edge {
  int to;
  const zroute *r;
} dj_edge;

/* What one zone needs to route. */
typedef struct zrouter {
  zkind kind;
  bool recursive; /* has sub-zones (SimGrid's RoutingMode::recursive) */
  int nv;         /* vertices */
  GHashTable *full;         /* Full: (s, d) locals -> zroute* */
  const zroute **ftable;    /* Floyd: [s * nv + d] */
  uint64_t *fcost;
  int64_t *fpred;
  int ng;                   /* Dijkstra: graph nodes */
  int *gnode;               /* local -> node or -1 */
  GArray **gout;            /* node -> dj_edge */
  uint64_t *gpred;          /* [src node * ng + v] */
  cs_sg_cluster *cluster;   /* K_CLUSTER */
  int32_t offset;           /* its first link id */
  int ordinal;              /* clusters in file order */
  GHashTable *bypass;       /* (src np, dst np) -> zroute*, NULL: none */
} zrouter;

typedef struct xroutes {
  const cs_xml_platform *x;
  zrouter *zr; /* by zone */
  GPtrArray *owned;
  int32_t nfile, loopback; /* file links; the loopback's id */
  bool loopback_used;
  int *tier; /* by link id */
} xroutes;

/* ---- building ---- */

static gint64 pair_key(int a, int b) { return ((gint64)a << 32) | (guint32)b; }

static gint64 *key_new(int a, int b)
{
  gint64 *k = g_new(gint64, 1);
  *k = pair_key(a, b);
  return k;
}

static GHashTable *pair_table(void) { return g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL); }

static bool fail(const cs_xml_platform *x, GError **err, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static bool fail(const cs_xml_platform *x, GError **err, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *m = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(err, CS_INPUT_ERROR, 1, "%s: %s", x->path, m);
  g_free(m);
  return false;
}

static int find_point(const cs_xml_platform *x, const char *name)
{
  if (!name)
    return -1;
  gpointer v = g_hash_table_lookup(x->points, name);
  if (!v)
    v = g_hash_table_lookup(x->zone_ids, name);
  return GPOINTER_TO_INT(v) - 1;
}

static zroute *route_new(xroutes *r, int n)
{
  zroute *z = g_new0(zroute, 1);
  z->n = n;
  z->links = g_new(int32_t, n > 0 ? n : 1);
  z->gw_src = z->gw_dst = -1;
  g_ptr_array_add(r->owned, z);
  return z;
}

static void route_free(gpointer p)
{
  zroute *z = p;
  g_free(z->links);
  g_free(z);
}

/* The declared route, or its symmetrical reverse (back). */
static zroute *declared_route(xroutes *r, const route_decl *d, bool back, bool keep_gateways)
{
  const cs_xml_platform *x = r->x;
  zroute *z = route_new(r, d->links);
  for (int i = 0; i < d->links; i++) {
    const route_hop *h = &g_array_index(x->hops, route_hop, d->first_hop + (back ? d->links - 1 - i : i));
    z->links[i] = back ? h->back : h->fwd;
  }
  if (keep_gateways) {
    int gs = find_point(x, d->gw_src), gd = find_point(x, d->gw_dst);
    z->gw_src = back ? gd : gs;
    z->gw_dst = back ? gs : gd;
  }
  return z;
}

static zroute *loopback_route(xroutes *r)
{
  zroute *z = route_new(r, 1);
  z->links[0] = r->loopback;
  r->loopback_used = true;
  return z;
}

/* The route's ends, checked as SimGrid checks them. */
static bool route_ends(xroutes *r, int zi, const route_decl *d, int *s, int *t, GError **err)
{
  const cs_xml_platform *x = r->x;
  *s = find_point(x, d->src);
  *t = find_point(x, d->dst);
  if (*s < 0 || *t < 0 || xml_np(x, *s)->parent != zi || xml_np(x, *t)->parent != zi)
    return fail(x, err, "route from \"%s\" to \"%s\": not two members of its zone", d->src, d->dst);
  for (int i = 0; i < d->links; i++) {
    const route_hop *h = &g_array_index(x->hops, route_hop, d->first_hop + i);
    if (h->fwd < 0 || h->back < 0) {
      char *dir = h->direction ? g_strdup_printf(" direction=\"%s\"", h->direction) : g_strdup("");
      fail(x, err, "route from \"%s\" to \"%s\": <link_ctn id=\"%s\"%s> names no link of the file%s", d->src,
           d->dst, h->name, dir, h->direction ? " (UP and DOWN name a SPLITDUPLEX link)" : "");
      g_free(dir);
      return false;
    }
  }
  if (d->links == 0)
    return fail(x, err, "route from \"%s\" to \"%s\" has no link (SimGrid refuses it)", d->src, d->dst);
  bool gateways = d->gw_src && d->gw_dst;
  if (r->zr[zi].recursive && !d->bypass && !gateways)
    return fail(x, err, "route from \"%s\" to \"%s\": a zone with sub-zones needs gateways", d->src, d->dst);
  int gs = gateways ? find_point(x, d->gw_src) : -1, gd = gateways ? find_point(x, d->gw_dst) : -1;
  if (gateways && (gs < 0 || gd < 0))
    return fail(x, err, "route from \"%s\" to \"%s\": unknown gateway", d->src, d->dst);
  if (gateways && d->zone_route && xml_np(x, *s)->kind == NP_ZONE && xml_np(x, *t)->kind == NP_ZONE &&
      (!xml_np_within(x, gs, xml_np(x, *s)->zone) || !xml_np_within(x, gd, xml_np(x, *t)->zone)))
    return fail(x, err, "route from \"%s\" to \"%s\": a gateway outside its zone (SimGrid refuses it)", d->src,
                d->dst);
  return true;
}

static bool pair_put(const cs_xml_platform *x, GHashTable *t, int a, int b, const zroute *z, const route_decl *d,
                     GError **err)
{
  gint64 k = pair_key(a, b);
  if (g_hash_table_contains(t, &k))
    return fail(x, err, "route from \"%s\" to \"%s\" declared twice (routes are symmetrical by default)", d->src,
                d->dst);
  g_hash_table_insert(t, key_new(a, b), (gpointer)z);
  return true;
}

static bool build_bypass(xroutes *r, int zi, const route_decl *d, GError **err)
{
  zrouter *zr = &r->zr[zi];
  int s = find_point(r->x, d->src), t = find_point(r->x, d->dst);
  for (int i = 0; i < d->links; i++)
    if (g_array_index(r->x->hops, route_hop, d->first_hop + i).fwd < 0)
      return fail(r->x, err, "bypass route from \"%s\" to \"%s\" names an unknown link", d->src, d->dst);
  if (s < 0 || t < 0 || d->links == 0)
    return fail(r->x, err, "bypass route from \"%s\" to \"%s\": unknown end or no link", d->src, d->dst);
  if (!zr->bypass)
    zr->bypass = pair_table();
  return pair_put(r->x, zr->bypass, s, t, declared_route(r, d, false, true), d, err);
}

static bool build_full(xroutes *r, int zi, GError **err)
{
  zrouter *zr = &r->zr[zi];
  const zone *z = xml_zone(r->x, zi);
  zr->full = pair_table();
  for (guint i = 0; i < z->routes->len; i++) {
    const route_decl *d = &g_array_index(z->routes, route_decl, i);
    int s, t;
    if (d->bypass)
      continue;
    if (!route_ends(r, zi, d, &s, &t, err))
      return false;
    int ls = xml_np(r->x, s)->local, lt = xml_np(r->x, t)->local;
    if (!pair_put(r->x, zr->full, ls, lt, declared_route(r, d, false, zr->recursive), d, err))
      return false;
    if (d->symmetrical && s != t &&
        !pair_put(r->x, zr->full, lt, ls, declared_route(r, d, true, zr->recursive), d, err))
      return false;
  }
  for (int v = 0; v < zr->nv && !zr->recursive; v++) {
    gint64 k = pair_key(v, v);
    if (!g_hash_table_contains(zr->full, &k))
      g_hash_table_insert(zr->full, key_new(v, v), loopback_route(r));
  }
  return true;
}

/* What a graph zone (Floyd, Dijkstra) does with one declared route from
 * its vertex a to b. */
typedef bool (*route_sink)(xroutes *r, zrouter *zr, int a, int b, const zroute *z, const route_decl *d, GError **err);

/* Every route declared in zone zi (bypass routes aside), in declaration
 * order, and its reverse right after it when symmetrical. */
static bool each_declared_route(xroutes *r, int zi, route_sink add, GError **err)
{
  zrouter *zr = &r->zr[zi];
  const zone *z = xml_zone(r->x, zi);
  for (guint i = 0; i < z->routes->len; i++) {
    const route_decl *d = &g_array_index(z->routes, route_decl, i);
    int s, t;
    if (d->bypass)
      continue;
    if (!route_ends(r, zi, d, &s, &t, err))
      return false;
    int ls = xml_np(r->x, s)->local, lt = xml_np(r->x, t)->local;
    if (!add(r, zr, ls, lt, declared_route(r, d, false, zr->recursive), d, err) ||
        (d->symmetrical && !add(r, zr, lt, ls, declared_route(r, d, true, zr->recursive), d, err)))
      return false;
  }
  return true;
}

static bool floyd_put(xroutes *r, zrouter *zr, int a, int b, const zroute *z, const route_decl *d, GError **err)
{
  size_t k = (size_t)a * zr->nv + b;
  if (zr->ftable[k])
    return fail(r->x, err, "route from \"%s\" to \"%s\" declared twice (routes are symmetrical by default)", d->src,
                d->dst);
  zr->ftable[k] = z;
  zr->fpred[k] = a;
  zr->fcost[k] = (uint64_t)z->n;
  return true;
}

/* FloydZone::do_seal, as written. */
static void floyd_close(zrouter *zr)
{
  size_t n = (size_t)zr->nv;
  for (size_t c = 0; c < n; c++)
    for (size_t a = 0; a < n; a++)
      for (size_t b = 0; b < n; b++) {
        uint64_t ac = zr->fcost[a * n + c], cb = zr->fcost[c * n + b], ab = zr->fcost[a * n + b];
        if (ac < UINT64_MAX && cb < UINT64_MAX && (ab == UINT64_MAX || ac + cb < ab)) {
          zr->fcost[a * n + b] = ac + cb;
          zr->fpred[a * n + b] = zr->fpred[c * n + b];
        }
      }
}

static bool build_floyd(xroutes *r, int zi, GError **err)
{
  zrouter *zr = &r->zr[zi];
  size_t n = (size_t)zr->nv;
  zr->ftable = g_new0(const zroute *, n * n);
  zr->fcost = g_new(uint64_t, n * n);
  zr->fpred = g_new(int64_t, n * n);
  for (size_t i = 0; i < n * n; i++) {
    zr->fcost[i] = UINT64_MAX;
    zr->fpred[i] = -1;
  }
  if (!each_declared_route(r, zi, floyd_put, err))
    return false;
  for (size_t v = 0; v < n && !zr->recursive; v++)
    if (!zr->ftable[v * n + v]) {
      zr->ftable[v * n + v] = loopback_route(r);
      zr->fpred[v * n + v] = (int64_t)v;
      zr->fcost[v * n + v] = 1;
    }
  floyd_close(zr);
  return true;
}

static int dj_node(zrouter *zr, int local)
{
  if (zr->gnode[local] < 0) {
    zr->gnode[local] = zr->ng++;
    zr->gout = g_renew(GArray *, zr->gout, zr->ng);
    zr->gout[zr->ng - 1] = g_array_new(FALSE, FALSE, sizeof(dj_edge));
  }
  return zr->gnode[local];
}

static const dj_edge *dj_edge_of(const zrouter *zr, int from, int to)
{
  const GArray *out = zr->gout[from];
  for (guint i = 0; i < out->len; i++)
    if (g_array_index(out, dj_edge, i).to == to)
      return &g_array_index(out, dj_edge, i);
  return NULL;
}

/* DijkstraZone::new_edge. */
static bool dj_new_edge(xroutes *r, zrouter *zr, int ls, int lt, const zroute *z, const route_decl *d, GError **err)
{
  int a = dj_node(zr, ls), b = dj_node(zr, lt);
  if (dj_edge_of(zr, a, b))
    return fail(r->x, err, "route from \"%s\" to \"%s\" declared twice (routes are symmetrical by default)", d->src,
                d->dst);
  dj_edge e = {b, z};
  g_array_append_val(zr->gout[a], e);
  return true;
}

typedef struct heap_item {
  double key;
  uint64_t id;
} heap_item;

static bool heap_less(const heap_item *a, const heap_item *b)
{
  return a->key < b->key || (a->key == b->key && a->id < b->id);
}

static void heap_push(GArray *h, double key, uint64_t id)
{
  heap_item it = {key, id};
  g_array_append_val(h, it);
  heap_item *v = (heap_item *)(void *)h->data;
  for (guint i = h->len - 1; i > 0 && heap_less(&v[i], &v[(i - 1) / 2]); i = (i - 1) / 2) {
    heap_item t = v[i];
    v[i] = v[(i - 1) / 2];
    v[(i - 1) / 2] = t;
  }
}

static uint64_t heap_pop(GArray *h)
{
  heap_item *v = (heap_item *)(void *)h->data;
  uint64_t top = v[0].id;
  v[0] = v[h->len - 1];
  g_array_set_size(h, h->len - 1);
  for (guint i = 0;;) {
    guint l = 2 * i + 1, rr = l + 1, m = i;
    if (l < h->len && heap_less(&v[l], &v[m]))
      m = l;
    if (rr < h->len && heap_less(&v[rr], &v[m]))
      m = rr;
    if (m == i)
      break;
    heap_item t = v[i];
    v[i] = v[m];
    v[m] = t;
    i = m;
  }
  return top;
}

/* DijkstraZone::get_local_route's search from node src, as written
 * (costs in unsigned long, queue keys in double). */
static void dj_search(zrouter *zr, int src, uint64_t *pred)
{
  uint64_t *cost = g_new(uint64_t, zr->ng);
  GArray *heap = g_array_new(FALSE, FALSE, sizeof(heap_item));
  for (int i = 0; i < zr->ng; i++) {
    cost[i] = i == src ? 0 : UINT64_MAX;
    pred[i] = 0;
    heap_push(heap, (double)cost[i], (uint64_t)i);
  }
  while (heap->len > 0) {
    uint64_t v = heap_pop(heap);
    const GArray *out = zr->gout[v];
    for (guint e = 0; e < out->len; e++) {
      const dj_edge *ed = &g_array_index(out, dj_edge, e);
      uint64_t through = (uint64_t)ed->r->n + cost[v];
      if (through < cost[ed->to]) {
        pred[ed->to] = v;
        cost[ed->to] = through;
        heap_push(heap, (double)through, (uint64_t)ed->to);
      }
    }
  }
  g_array_free(heap, TRUE);
  g_free(cost);
}

static bool build_dijkstra(xroutes *r, int zi, GError **err)
{
  zrouter *zr = &r->zr[zi];
  zr->gnode = g_new(int, zr->nv > 0 ? zr->nv : 1);
  for (int v = 0; v < zr->nv; v++)
    zr->gnode[v] = -1;
  if (!each_declared_route(r, zi, dj_new_edge, err))
    return false;
  for (int g = 0; g < zr->ng && !zr->recursive; g++)
    if (!dj_edge_of(zr, g, g)) {
      dj_edge e = {g, loopback_route(r)};
      g_array_append_val(zr->gout[g], e);
    }
  zr->gpred = g_new(uint64_t, (size_t)zr->ng * zr->ng + 1);
  for (int g = 0; g < zr->ng; g++)
    dj_search(zr, g, zr->gpred + (size_t)g * zr->ng);
  return true;
}

/* ---- clusters ---- */

static double cluster_value(const char *text, cs_sg_quantity kind, double absent)
{
  double v = absent;
  const char *why = NULL;
  if (text && *text && !cs_sg_parse_value(text, kind, &v, &why))
    v = absent;
  return v;
}

static cs_sg_cluster *cluster_of(const cs_xml_platform *x, const xml_cluster *c, GError **err)
{
  cs_sgc_params p = {
      .id = c->id ? c->id : "",
      .prefix = c->prefix ? c->prefix : "",
      .suffix = c->suffix ? c->suffix : "",
      .radical = (const int64_t *)(void *)c->radical->data,
      .nhosts = c->radical->len,
      .topology = c->topology,
      .topo_parameters = c->topo_parameters,
      .bw = cluster_value(c->bw, CS_SG_BANDWIDTH, NAN),
      .lat = cluster_value(c->lat, CS_SG_TIME, 0),
      .sharing_policy = c->sharing_policy,
      .loopback_bw = cluster_value(c->loopback_bw, CS_SG_BANDWIDTH, NAN),
      .loopback_lat = cluster_value(c->loopback_lat, CS_SG_TIME, NAN),
      .limiter_link = cluster_value(c->limiter_link, CS_SG_BANDWIDTH, NAN),
      .bb_bw = cluster_value(c->bb_bw, CS_SG_BANDWIDTH, NAN),
      .bb_lat = cluster_value(c->bb_lat, CS_SG_TIME, 0),
      .bb_sharing_policy = c->bb_sharing_policy,
      .router_id = c->router_id && *c->router_id ? c->router_id : NULL,
  };
  GError *e = NULL;
  cs_sg_cluster *sg = cs_sg_cluster_new(&p, &e);
  if (!sg) {
    fail(x, err, "<cluster id=\"%s\">: %s", p.id, e ? e->message : "refused");
    g_clear_error(&e);
  }
  return sg;
}

int64_t cs_xml_cluster_hosts(const cs_xml_platform *x, const xml_cluster *c)
{
  cs_sg_cluster *sg = cluster_of(x, c, NULL);
  int64_t n = sg ? cs_sg_cluster_hosts(sg) : (int64_t)c->radical->len;
  cs_sg_cluster_free(sg);
  return n;
}

/* ---- the zones ---- */

static bool zone_kind(const cs_xml_platform *x, int zi, zkind *k, GError **err)
{
  const zone *z = xml_zone(x, zi);
  const char *rn = z->routing_name;
  if (z->cluster >= 0)
    *k = K_CLUSTER;
  else if ((zi == 0 && strcmp(rn, "Cluster") == 0) || strcmp(rn, "Full") == 0) /* SimGrid's names, case and all */
    *k = K_FULL;
  else if (strcmp(rn, "None") == 0)
    *k = K_NONE;
  else if (strcmp(rn, "Floyd") == 0)
    *k = K_FLOYD;
  else if (strcmp(rn, "Dijkstra") == 0 || strcmp(rn, "DijkstraCache") == 0)
    *k = K_DIJKSTRA;
  else
    return fail(x, err, "<zone id=\"%s\" routing=\"%s\">: collsim's router does not know this routing",
                z->np >= 0 ? xml_np(x, z->np)->name : "", rn);
  return true;
}

static bool has_subzone(const cs_xml_platform *x, const zone *z)
{
  for (guint i = 0; i < z->children->len; i++)
    if (xml_np(x, g_array_index(z->children, int, i))->kind == NP_ZONE)
      return true;
  return false;
}

static bool build_zone(xroutes *r, int zi, GError **err)
{
  zrouter *zr = &r->zr[zi];
  const zone *z = xml_zone(r->x, zi);
  for (guint i = 0; i < z->routes->len; i++) {
    const route_decl *d = &g_array_index(z->routes, route_decl, i);
    if (d->bypass && !build_bypass(r, zi, d, err))
      return false;
  }
  switch (zr->kind) {
  case K_FULL:
    return build_full(r, zi, err);
  case K_FLOYD:
    return build_floyd(r, zi, err);
  case K_DIJKSTRA:
    return build_dijkstra(r, zi, err);
  case K_NONE:
  case K_CLUSTER:
    return true;
  }
  return true;
}

static void zrouter_clear(zrouter *zr)
{
  if (zr->full)
    g_hash_table_destroy(zr->full);
  if (zr->bypass)
    g_hash_table_destroy(zr->bypass);
  g_free(zr->ftable);
  g_free(zr->fcost);
  g_free(zr->fpred);
  g_free(zr->gnode);
  for (int g = 0; g < zr->ng; g++)
    g_array_free(zr->gout[g], TRUE);
  g_free(zr->gout);
  g_free(zr->gpred);
  if (zr->cluster)
    cs_sg_cluster_free(zr->cluster);
}

static void xroutes_free(void *data)
{
  xroutes *r = data;
  if (!r)
    return;
  for (guint i = 0; r->zr && i < r->x->zones->len; i++)
    zrouter_clear(&r->zr[i]);
  g_free(r->zr);
  g_ptr_array_free(r->owned, TRUE);
  g_free(r->tier);
  g_free(r);
}

/* ---- routing ---- */

typedef struct route_ctx {
  const xroutes *r;
  int depth;
} route_ctx;

static bool global_route(route_ctx *c, int src, int dst, GArray *links);

static void append(GArray *links, const int32_t *l, int n) { g_array_append_vals(links, l, (guint)n); }

/* insert_link_latency: l reversed, at the front. */
static void insert_front_reversed(GArray *links, const int32_t *l, int n)
{
  for (int i = 0; i < n; i++)
    g_array_prepend_val(links, l[i]);
}

static int np_parent(const xroutes *r, int p) { return xml_np(r->x, p)->parent; }

static bool full_local(const xroutes *r, const zrouter *zr, int s, int d, GArray *links, int *gs, int *gd)
{
  gint64 k = pair_key(xml_np(r->x, s)->local, xml_np(r->x, d)->local);
  const zroute *z = g_hash_table_lookup(zr->full, &k);
  if (z) {
    *gs = z->gw_src;
    *gd = z->gw_dst;
    append(links, z->links, z->n);
  }
  return true;
}

static bool floyd_local(route_ctx *c, const zrouter *zr, int s, int d, GArray *links, int *gs, int *gd)
{
  const xroutes *r = c->r;
  int n = zr->nv, ls = xml_np(r->x, s)->local;
  GPtrArray *stack = g_ptr_array_new();
  int64_t cur = xml_np(r->x, d)->local;
  bool ok = true;
  do {
    int64_t pred = zr->fpred[(size_t)ls * n + cur];
    if (pred < 0 || stack->len > (guint)n) {
      ok = false;
      break;
    }
    g_ptr_array_add(stack, (gpointer)zr->ftable[(size_t)pred * n + cur]);
    cur = pred;
  } while (cur != ls);
  if (ok && zr->recursive) {
    *gs = ((const zroute *)g_ptr_array_index(stack, stack->len - 1))->gw_src;
    *gd = ((const zroute *)g_ptr_array_index(stack, 0))->gw_dst;
  }
  int prev_gw = -1;
  for (guint i = stack->len; ok && i > 0; i--) {
    const zroute *e = g_ptr_array_index(stack, i - 1);
    if (zr->recursive && prev_gw >= 0 &&
        (e->gw_src < 0 || strcmp(xml_np(r->x, prev_gw)->name, xml_np(r->x, e->gw_src)->name) != 0))
      ok = e->gw_src >= 0 && global_route(c, prev_gw, e->gw_src, links);
    append(links, e->links, e->n);
    prev_gw = e->gw_dst;
  }
  g_ptr_array_free(stack, TRUE);
  return ok;
}

static bool dijkstra_local(const xroutes *r, const zrouter *zr, int s, int d, GArray *links, int *gs, int *gd)
{
  int sn = zr->gnode[xml_np(r->x, s)->local], dn = zr->gnode[xml_np(r->x, d)->local];
  if (sn < 0 || dn < 0)
    return false; /* SimGrid dereferences a missing graph node */
  if (sn == dn) {
    const dj_edge *e = dj_edge_of(zr, sn, dn);
    if (!e)
      return false;
    insert_front_reversed(links, e->r->links, e->r->n);
  }
  const uint64_t *pred = zr->gpred + (size_t)sn * zr->ng;
  int gw_src = -1, first_gw = -1, steps = 0;
  for (uint64_t v = (uint64_t)dn; v != (uint64_t)sn; v = pred[v]) {
    const dj_edge *e = dj_edge_of(zr, (int)pred[v], (int)v);
    if (!e || ++steps > zr->ng)
      return false; /* "No route", or SimGrid would loop forever */
    int prev_gw_src = gw_src;
    gw_src = e->r->gw_src;
    if (v == (uint64_t)dn)
      first_gw = e->r->gw_dst;
    if (zr->recursive && v != (uint64_t)dn &&
        (prev_gw_src < 0 || e->r->gw_dst < 0 ||
         strcmp(xml_np(r->x, e->r->gw_dst)->name, xml_np(r->x, prev_gw_src)->name) != 0))
      return false; /* SimGrid asks get_global_route(nullptr, nullptr) */
    insert_front_reversed(links, e->r->links, e->r->n);
  }
  if (zr->recursive) {
    *gs = gw_src;
    *gd = first_gw;
  }
  return true;
}

/* A cluster's host by position (its router: CS_SGC_ROUTER). */
static int64_t cluster_position(const xroutes *r, int p)
{
  const netpoint *n = xml_np(r->x, p);
  return n->kind == NP_HOST ? n->local : CS_SGC_ROUTER; /* a cluster's hosts come first, in radical order */
}

static bool cluster_local(const xroutes *r, const zrouter *zr, int s, int d, GArray *links)
{
  int32_t buf[64];
  int n = cs_sg_cluster_route(zr->cluster, cluster_position(r, s), cluster_position(r, d), buf, 64);
  int32_t *l = buf;
  if (n > 64) {
    l = g_new(int32_t, n);
    n = cs_sg_cluster_route(zr->cluster, cluster_position(r, s), cluster_position(r, d), l, n);
  }
  for (int i = 0; i < n; i++) {
    int32_t id = l[i] + zr->offset;
    g_array_append_val(links, id);
  }
  if (l != buf)
    g_free(l);
  return n >= 0;
}

/* get_local_route of zone zi between two of its vertices; links: where
 * SimGrid's route list is (the whole route so far in the base case). */
static bool local_route(route_ctx *c, int zi, int s, int d, GArray *links, int *gs, int *gd)
{
  const xroutes *r = c->r;
  const zrouter *zr = &r->zr[zi];
  *gs = *gd = -1;
  if (np_parent(r, s) != zi || np_parent(r, d) != zi)
    return false; /* SimGrid indexes the zone's tables with another zone's ids */
  switch (zr->kind) {
  case K_FULL:
    return full_local(r, zr, s, d, links, gs, gd);
  case K_NONE:
    return true;
  case K_FLOYD:
    return floyd_local(c, zr, s, d, links, gs, gd);
  case K_DIJKSTRA:
    return dijkstra_local(r, zr, s, d, links, gs, gd);
  case K_CLUSTER:
    return cluster_local(r, zr, s, d, links);
  }
  return false;
}

/* The zones from p's englobing zone up to the root. */
static GArray *zone_path(const xroutes *r, int p)
{
  GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
  for (int z = np_parent(r, p); z >= 0; z = xml_zone(r->x, z)->parent)
    g_array_append_val(a, z);
  return a;
}

static int back_of(const GArray *a) { return g_array_index(a, int, a->len - 1); }

/* Pops the common top of both paths; returns the last zone popped (-1: none). */
static int pop_common(GArray *ps, GArray *pd)
{
  int parent = -1;
  while (ps->len > 1 && pd->len > 1 && back_of(ps) == back_of(pd)) {
    parent = back_of(ps);
    g_array_set_size(ps, ps->len - 1);
    g_array_set_size(pd, pd->len - 1);
  }
  return parent;
}

/* find_common_ancestors. */
static void common_ancestors(const xroutes *r, int src, int dst, int *common, int *sa, int *da)
{
  if (np_parent(r, src) == np_parent(r, dst)) {
    *common = *sa = *da = np_parent(r, src);
    return;
  }
  GArray *ps = zone_path(r, src), *pd = zone_path(r, dst);
  int parent = pop_common(ps, pd);
  *sa = back_of(ps);
  *da = back_of(pd);
  *common = *sa == *da ? *sa : parent;
  g_array_free(ps, TRUE);
  g_array_free(pd, TRUE);
}

typedef enum { BYPASS_NONE, BYPASS_TAKEN, BYPASS_FAILED } bypass_result;

static const zroute *bypass_at(const xroutes *r, const zrouter *zr, const GArray *ps, const GArray *pd, guint i,
                               guint j, int *ks, int *kd)
{
  if (i >= ps->len || j >= pd->len)
    return NULL;
  *ks = xml_zone(r->x, g_array_index(ps, int, i))->np;
  *kd = xml_zone(r->x, g_array_index(pd, int, j))->np;
  gint64 k = pair_key(*ks, *kd);
  return g_hash_table_lookup(zr->bypass, &k);
}

/* get_bypass_route of the common ancestor. */
static bypass_result bypass(route_ctx *c, int common, int src, int dst, GArray *links)
{
  const xroutes *r = c->r;
  const zrouter *zr = &r->zr[common];
  if (!zr->bypass)
    return BYPASS_NONE;
  if (np_parent(r, src) == common && np_parent(r, dst) == common) {
    gint64 k = pair_key(src, dst);
    const zroute *z = g_hash_table_lookup(zr->bypass, &k);
    if (z)
      append(links, z->links, z->n);
    return z ? BYPASS_TAKEN : BYPASS_NONE;
  }
  GArray *ps = zone_path(r, src), *pd = zone_path(r, dst);
  pop_common(ps, pd);
  const zroute *found = NULL;
  int ks = -1, kd = -1;
  for (guint max = 0, top = MAX(ps->len, pd->len); max < top && !found; max++) {
    for (guint i = 0; i < max && !found; i++) {
      found = bypass_at(r, zr, ps, pd, i, max, &ks, &kd);
      if (!found)
        found = bypass_at(r, zr, ps, pd, max, i, &ks, &kd);
    }
    if (!found)
      found = bypass_at(r, zr, ps, pd, max, max, &ks, &kd);
  }
  g_array_free(ps, TRUE);
  g_array_free(pd, TRUE);
  if (!found)
    return BYPASS_NONE;
  bool ok = true;
  if (src != ks)
    ok = found->gw_src >= 0 && global_route(c, src, found->gw_src, links);
  if (ok)
    append(links, found->links, found->n);
  if (ok && dst != kd)
    ok = found->gw_dst >= 0 && global_route(c, found->gw_dst, dst, links);
  return ok ? BYPASS_TAKEN : BYPASS_FAILED;
}

/* get_global_route_with_netzones. */
static bool global_route(route_ctx *c, int src, int dst, GArray *links)
{
  if (++c->depth > MAX_RECURSION)
    return false;
  const xroutes *r = c->r;
  int common, sa, da;
  common_ancestors(r, src, dst, &common, &sa, &da);
  bypass_result b = bypass(c, common, src, dst, links);
  if (b != BYPASS_NONE)
    return c->depth--, b == BYPASS_TAKEN;
  int gs, gd;
  bool ok;
  if (sa == da) {
    ok = local_route(c, common, src, dst, links, &gs, &gd);
  } else {
    GArray *mid = g_array_new(FALSE, FALSE, sizeof(int32_t));
    ok = local_route(c, common, xml_zone(r->x, sa)->np, xml_zone(r->x, da)->np, mid, &gs, &gd) && gs >= 0 &&
         gd >= 0; /* else "Bad gateways" */
    if (ok && src != gs)
      ok = global_route(c, src, gs, links);
    if (ok)
      g_array_append_vals(links, mid->data, mid->len);
    if (ok && gd != dst)
      ok = global_route(c, gd, dst, links);
    g_array_free(mid, TRUE);
  }
  c->depth--;
  return ok;
}

/* ---- the netmap ---- */

static const xroutes *XR(const cs_netmap *m) { return m->data; }

/* The cluster zone owning link id (ids past the file's), or NULL. */
static const zrouter *link_cluster(const xroutes *r, int64_t id, int64_t *local)
{
  const zrouter *best = NULL;
  for (guint i = 0; i < r->x->zones->len; i++) {
    const zrouter *zr = &r->zr[i];
    if (zr->cluster && zr->offset <= id && id - zr->offset < cs_sg_cluster_nlinks(zr->cluster))
      best = zr;
  }
  if (best)
    *local = id - best->offset;
  return best;
}

static void op_link_name(const cs_netmap *m, int64_t id, GString *out)
{
  const xroutes *r = XR(m);
  int64_t local = 0;
  const zrouter *zr;
  if (id < r->nfile)
    g_string_append(out, g_array_index(r->x->links, xml_link, id).name);
  else if (id == r->loopback)
    g_string_append(out, LOOPBACK_NAME);
  else if ((zr = link_cluster(r, id, &local)))
    cs_sg_cluster_link_name(zr->cluster, local, out);
}

static int op_link_tier(const cs_netmap *m, int64_t id) { return XR(m)->tier[id]; }

static bool op_link_ends(const cs_netmap *m, int64_t id, GString *src, GString *dst)
{
  int64_t local = 0;
  const zrouter *zr = id >= XR(m)->nfile && id != XR(m)->loopback ? link_cluster(XR(m), id, &local) : NULL;
  return zr && cs_sg_cluster_link_ends(zr->cluster, local, src, dst);
}

static double op_link_bandwidth(const cs_netmap *m, int64_t id)
{
  const xroutes *r = XR(m);
  int64_t local = 0;
  const zrouter *zr;
  if (id < r->nfile)
    return g_array_index(r->x->links, xml_link, id).bandwidth;
  if (id == r->loopback)
    return LOOPBACK_BW;
  zr = link_cluster(r, id, &local);
  return zr ? cs_sg_cluster_link_bandwidth(zr->cluster, local) : NAN;
}

static double op_link_latency(const cs_netmap *m, int64_t id)
{
  const xroutes *r = XR(m);
  int64_t local = 0;
  const zrouter *zr;
  if (id < r->nfile)
    return g_array_index(r->x->links, xml_link, id).latency;
  if (id == r->loopback)
    return LOOPBACK_LAT;
  zr = link_cluster(r, id, &local);
  return zr ? cs_sg_cluster_link_latency(zr->cluster, local) : NAN;
}

static bool op_link_internal(const cs_netmap *m, int64_t id) { return id == XR(m)->loopback; }

static int op_route(const cs_netmap *m, int64_t a, int64_t b, int32_t *links, int cap)
{
  const xroutes *r = XR(m);
  if (a < 0 || b < 0 || a >= m->nodes || b >= m->nodes)
    return -1;
  GArray *l = g_array_new(FALSE, FALSE, sizeof(int32_t));
  route_ctx c = {r, 0};
  int src = g_array_index(r->x->hosts, int, a), dst = g_array_index(r->x->hosts, int, b);
  int n = global_route(&c, src, dst, l) && l->len <= CS_NETMAP_MAX_HOPS ? (int)l->len : -1;
  if (n == 0 && a == b && r->loopback >= 0) { /* SimGrid finds no link: its own loopback carries it */
    g_array_append_val(l, r->loopback);
    n = 1;
  }
  if (n > 0 && cap > 0)
    memcpy(links, l->data, sizeof(int32_t) * (size_t)MIN(n, cap));
  g_array_free(l, TRUE);
  return n;
}

static const cs_netmap_ops XML_OPS = {op_link_name,    op_link_tier,     op_link_ends, op_link_bandwidth,
                                      op_link_latency, op_link_internal, op_route,     xroutes_free};

/* Does some host's route to itself have no link (a torus host without a
 * loopback, a host in a zone with sub-zones)?  Such a host's messages to
 * itself take "__loopback__", as in sg_cluster's netmap. */
static bool some_host_alone(const xroutes *r)
{
  GArray *l = g_array_new(FALSE, FALSE, sizeof(int32_t));
  bool alone = false;
  for (guint g = 0; g < r->x->hosts->len && !alone; g++) {
    route_ctx c = {r, 0};
    int h = g_array_index(r->x->hosts, int, g);
    g_array_set_size(l, 0);
    alone = global_route(&c, h, h, l) && l->len == 0;
  }
  g_array_free(l, TRUE);
  return alone;
}

/* ---- tiers ---- */

#define CLUSTER_TIERS (1 << 20)
#define UNKNOWN_TIER (1 << 28)
#define INTRA_TIER (1 << 29)

typedef struct tier_choice {
  char *name;
  int order; /* depth; CLUSTER_TIERS + 64 x cluster + the tier's rank in it; UNKNOWN_TIER "?"; INTRA_TIER "intra" */
} tier_choice;

/* The smallest depth of a zone whose routes take each file link (INT_MAX: none). */
static int *link_depths(const cs_xml_platform *x)
{
  int *depth = g_new(int, x->links->len + 1);
  for (guint i = 0; i < x->links->len; i++)
    depth[i] = G_MAXINT;
  for (guint zi = 0; zi < x->zones->len; zi++) {
    const zone *z = xml_zone(x, zi);
    for (guint i = 0; i < z->routes->len; i++) {
      const route_decl *d = &g_array_index(z->routes, route_decl, i);
      for (int h = 0; h < d->links; h++) {
        const route_hop *hop = &g_array_index(x->hops, route_hop, d->first_hop + h);
        int32_t ids[2] = {hop->fwd, d->symmetrical && !d->bypass ? hop->back : -1};
        for (int k = 0; k < 2; k++)
          if (ids[k] >= 0 && z->depth < depth[ids[k]])
            depth[ids[k]] = z->depth;
      }
    }
  }
  return depth;
}

static tier_choice file_link_tier(const cs_xml_platform *x, int id, int depth)
{
  const xml_link *l = &g_array_index(x->links, xml_link, id);
  if (l->tier)
    return (tier_choice){g_strdup(l->tier), depth == G_MAXINT ? CLUSTER_TIERS - 1 : depth};
  if (depth == G_MAXINT)
    return (tier_choice){g_strdup("?"), UNKNOWN_TIER};
  return (tier_choice){g_strdup_printf("zone%d", depth), depth};
}

static int tier_cmp(const void *a, const void *b)
{
  const tier_choice *p = a, *q = b;
  return p->order != q->order ? (p->order > q->order) - (p->order < q->order) : strcmp(p->name, q->name);
}

static int cluster_tier_rank(const zrouter *zr, const char *name)
{
  const char *names[CS_NETMAP_MAX_TIERS];
  int n = cs_sg_cluster_tiers(zr->cluster, names, CS_NETMAP_MAX_TIERS);
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0)
      return i;
  return n;
}

/* Each link's tier; tiers registered in report order. */
static void assign_tiers(cs_netmap *m, xroutes *r)
{
  const cs_xml_platform *x = r->x;
  int64_t n = m->nlinks;
  tier_choice *choice = g_new0(tier_choice, n > 0 ? n : 1);
  int *depth = link_depths(x);
  for (int64_t id = 0; id < n; id++) {
    int64_t local = 0;
    const zrouter *zr;
    if (id < r->nfile)
      choice[id] = file_link_tier(x, (int)id, depth[id]);
    else if (id == r->loopback)
      choice[id] = (tier_choice){g_strdup("intra"), INTRA_TIER};
    else if ((zr = link_cluster(r, id, &local))) {
      const char *t = cs_sg_cluster_link_tier(zr->cluster, local);
      int rank = CLUSTER_TIERS + 64 * MIN(zr->ordinal, 10000) + MIN(cluster_tier_rank(zr, t), 63);
      choice[id] = (tier_choice){g_strdup(t), strcmp(t, "intra") == 0 ? INTRA_TIER : rank};
    }
  }
  tier_choice *sorted = g_memdup2(choice, sizeof *choice * (size_t)(n > 0 ? n : 1));
  qsort(sorted, (size_t)n, sizeof *sorted, tier_cmp);
  for (int64_t i = 0; i < n; i++)
    if (strcmp(sorted[i].name, "?") == 0)
      cs_netmap_tier_unknown(m);
    else
      cs_netmap_tier(m, sorted[i].name);
  r->tier = g_new(int, n > 0 ? n : 1);
  for (int64_t id = 0; id < n; id++) {
    r->tier[id] = strcmp(choice[id].name, "?") == 0 ? cs_netmap_tier_unknown(m) : cs_netmap_tier(m, choice[id].name);
    g_free(choice[id].name);
  }
  g_free(sorted);
  g_free(choice);
  g_free(depth);
}

/* ---- building the map ---- */

/* SimGrid 3.32 numbers the hosts and links of a FAT_TREE (a DRAGONFLY)
 * cluster with counters that run on from one cluster of that topology to
 * the next (static members of its zone class), which the emulation of one
 * cluster does not know: a second cluster of either topology is refused
 * (one of each is fine: tests/data/platforms/fattree_dragonfly.xml). */
static const char *numbered_by_simgrid(const xml_cluster *c)
{
  if (c->topology && g_ascii_strcasecmp(c->topology, "FAT_TREE") == 0)
    return "FAT_TREE";
  if (c->topology && g_ascii_strcasecmp(c->topology, "DRAGONFLY") == 0)
    return "DRAGONFLY";
  return NULL;
}

static bool build_clusters(xroutes *r, int32_t *next, GError **err)
{
  const cs_xml_platform *x = r->x;
  int ordinal = 0;
  const char *first_ft = NULL, *first_df = NULL;
  for (guint zi = 0; zi < x->zones->len; zi++) {
    zrouter *zr = &r->zr[zi];
    if (zr->kind != K_CLUSTER)
      continue;
    const xml_cluster *c = &g_array_index(x->clusters, xml_cluster, xml_zone(x, zi)->cluster);
    const char *topo = numbered_by_simgrid(c), *id = c->id ? c->id : "";
    const char **first = topo && topo[0] == 'F' ? &first_ft : &first_df;
    if (topo && *first)
      return fail(x, err, "<cluster id=\"%s\">: a second %s cluster (after %s): SimGrid numbers the links of "
                  "its %s clusters across clusters, which collsim's router does not follow", id, topo, *first, topo);
    if (topo)
      *first = id;
    zr->cluster = cluster_of(x, &g_array_index(x->clusters, xml_cluster, xml_zone(x, zi)->cluster), err);
    if (!zr->cluster)
      return false;
    zr->offset = *next;
    zr->ordinal = ordinal++;
    *next += (int32_t)cs_sg_cluster_nlinks(zr->cluster);
  }
  return true;
}

cs_netmap *cs_xml_routes_netmap(const cs_xml_platform *x, GError **err)
{
  if (x->has_include) {
    fail(x, err, "<include>: collsim's router does not read included files");
    return NULL;
  }
  xroutes *r = g_new0(xroutes, 1);
  r->x = x;
  r->owned = g_ptr_array_new_with_free_func(route_free);
  r->zr = g_new0(zrouter, x->zones->len);
  r->nfile = (int32_t)x->links->len;
  bool ok = true;
  for (guint zi = 0; ok && zi < x->zones->len; zi++) {
    const zone *z = xml_zone(x, zi);
    r->zr[zi].nv = (int)z->children->len;
    r->zr[zi].recursive = has_subzone(x, z);
    ok = zone_kind(x, (int)zi, &r->zr[zi].kind, err);
  }
  int32_t next = r->nfile;
  ok = ok && build_clusters(r, &next, err);
  r->loopback = next;
  for (guint zi = 0; ok && zi < x->zones->len; zi++)
    ok = build_zone(r, (int)zi, err);
  if (!ok) {
    xroutes_free(r);
    return NULL;
  }
  r->loopback_used = r->loopback_used || some_host_alone(r);
  cs_netmap *m = cs_netmap_new(&XML_OPS, r, (int64_t)x->hosts->len, next + (r->loopback_used ? 1 : 0));
  if (!r->loopback_used)
    r->loopback = -1;
  assign_tiers(m, r);
  return m;
}

/* ---- the hierarchy ---- */

/* The zone of depth d above netpoint p (its englobing zone's ancestor). */
static int zone_at_depth(const cs_xml_platform *x, int p, int d)
{
  int z = xml_np(x, p)->parent;
  while (z >= 0 && xml_zone(x, z)->depth > d)
    z = xml_zone(x, z)->parent;
  return z;
}

typedef struct hier_build {
  int nlevels;
  char name[CS_HIER_MAX_LEVELS][24], tier[CS_HIER_MAX_LEVELS][24];
  int64_t count[CS_HIER_MAX_LEVELS];
  GArray *index; /* int32 per host per level: [g * CS_HIER_MAX_LEVELS + l] */
  char node_tier[24];
} hier_build;

static void set_index(hier_build *b, int64_t g, int l, int32_t v)
{
  g_array_index(b->index, int32_t, g * CS_HIER_MAX_LEVELS + l) = v;
}

/* A level "zone<d>" if every host lies in a zone of depth d and there are two or more. */
static void zone_level(const cs_xml_platform *x, hier_build *b, int d)
{
  GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
  int l = b->nlevels;
  for (guint g = 0; g < x->hosts->len; g++) {
    int z = zone_at_depth(x, g_array_index(x->hosts, int, g), d);
    gpointer v = g_hash_table_lookup(seen, GINT_TO_POINTER(z + 1));
    if (!v) {
      v = GINT_TO_POINTER(g_hash_table_size(seen) + 1);
      g_hash_table_insert(seen, GINT_TO_POINTER(z + 1), v);
    }
    set_index(b, g, l, GPOINTER_TO_INT(v) - 1);
  }
  if (g_hash_table_size(seen) > 1) {
    g_snprintf(b->name[l], sizeof b->name[l], "zone%d", d);
    g_snprintf(b->tier[l], sizeof b->tier[l], "zone%d", d - 1);
    b->count[l] = g_hash_table_size(seen);
    b->nlevels++;
  }
  g_hash_table_destroy(seen);
}

/* The clusters' own levels, when every host is in a cluster and the
 * clusters agree on their levels (FALSE: left out). */
static bool cluster_levels(const cs_xml_platform *x, hier_build *b)
{
  int nz = (int)x->zones->len;
  cs_sg_cluster **cl = g_new0(cs_sg_cluster *, nz);
  cs_hierarchy *ch = g_new0(cs_hierarchy, nz);
  int64_t *first = g_new0(int64_t, CS_HIER_MAX_LEVELS * (size_t)nz);
  int ref = -1;
  bool ok = true;
  for (guint g = 0; ok && g < x->hosts->len; g++) {
    int z = xml_np(x, g_array_index(x->hosts, int, g))->parent;
    ok = xml_zone(x, z)->cluster >= 0;
    if (ok && !cl[z]) {
      cl[z] = cluster_of(x, &g_array_index(x->clusters, xml_cluster, xml_zone(x, z)->cluster), NULL);
      ok = cl[z] != NULL;
      if (ok)
        cs_sg_cluster_hierarchy(cl[z], 1, &ch[z]);
      ok = ok && (ref < 0 || ch[z].node_level == ch[ref].node_level) &&
           b->nlevels + ch[z].node_level <= CS_HIER_MAX_LEVELS - 2;
      for (int l = 0; ok && ref >= 0 && l <= ch[z].node_level; l++)
        ok = strcmp(ch[z].level[l].name, ch[ref].level[l].name) == 0;
      if (ok && ref >= 0 && strcmp(ch[z].level[ch[z].node_level].tier, ch[ref].level[ch[ref].node_level].tier) != 0)
        g_strlcpy(b->node_tier, "", sizeof b->node_tier);
      for (int l = 0; ok && l < ch[z].node_level; l++) { /* this cluster's first entity, level by level */
        first[(size_t)z * CS_HIER_MAX_LEVELS + l] = b->count[b->nlevels + l];
        b->count[b->nlevels + l] += ch[z].level[l].count;
      }
      if (ok && ref < 0) {
        ref = z;
        g_strlcpy(b->node_tier, ch[z].level[ch[z].node_level].tier, sizeof b->node_tier);
      }
    }
  }
  for (guint g = 0; ok && g < x->hosts->len; g++) {
    int p = g_array_index(x->hosts, int, g), z = xml_np(x, p)->parent;
    for (int l = 0; l < ch[ref].node_level; l++)
      set_index(b, g, b->nlevels + l,
                (int32_t)(first[(size_t)z * CS_HIER_MAX_LEVELS + l] +
                          cs_hier_node_index(&ch[z], xml_np(x, p)->local, l)));
  }
  if (ok && ref >= 0) {
    for (int l = 0; l < ch[ref].node_level; l++) {
      g_strlcpy(b->name[b->nlevels + l], ch[ref].level[l].name, sizeof b->name[0]);
      g_strlcpy(b->tier[b->nlevels + l], ch[ref].level[l].tier, sizeof b->tier[0]);
    }
    b->nlevels += ch[ref].node_level;
  } else {
    memset(b->count + b->nlevels, 0, sizeof(int64_t) * (size_t)(CS_HIER_MAX_LEVELS - b->nlevels));
  }
  for (int z = 0; z < nz; z++)
    if (cl[z])
      cs_sg_cluster_free(cl[z]);
  g_free(cl);
  g_free(ch);
  g_free(first);
  return ok && ref >= 0;
}

/* "zone<D>" when every host lies directly in a zone of depth D that is
 * not a cluster, else "". */
static void zone_node_tier(const cs_xml_platform *x, hier_build *b)
{
  int d = -1;
  for (guint g = 0; g < x->hosts->len; g++) {
    const zone *z = xml_zone(x, xml_np(x, g_array_index(x->hosts, int, g))->parent);
    int hd = z->depth;
    if ((d >= 0 && hd != d) || z->cluster >= 0) {
      g_strlcpy(b->node_tier, "", sizeof b->node_tier);
      return;
    }
    d = hd;
  }
  g_snprintf(b->node_tier, sizeof b->node_tier, "zone%d", d);
}

void cs_xml_routes_hierarchy(const cs_xml_platform *x, int64_t cores, cs_hierarchy *out)
{
  int64_t n = (int64_t)x->hosts->len;
  hier_build b = {0};
  b.index = g_array_sized_new(FALSE, TRUE, sizeof(int32_t), (guint)(n * CS_HIER_MAX_LEVELS));
  g_array_set_size(b.index, (guint)(n * CS_HIER_MAX_LEVELS));
  int min_depth = G_MAXINT;
  for (guint g = 0; g < x->hosts->len; g++)
    min_depth = MIN(min_depth, xml_zone(x, xml_np(x, g_array_index(x->hosts, int, g))->parent)->depth);
  for (int d = 2; d <= min_depth && b.nlevels < CS_HIER_MAX_LEVELS - 2; d++)
    zone_level(x, &b, d);
  if (!cluster_levels(x, &b))
    zone_node_tier(x, &b);
  memset(out, 0, sizeof *out);
  for (int l = 0; l < b.nlevels; l++)
    cs_hier_push(out, b.name[l], b.tier[l], b.count[l]);
  cs_hier_finish(out, n, cores, b.node_tier);
  if (!x->hier_table && b.nlevels > 0) { /* built once: earlier views keep pointing at it */
    int32_t *t = g_new(int32_t, (size_t)(n * b.nlevels));
    for (int64_t g = 0; g < n; g++)
      for (int l = 0; l < b.nlevels; l++)
        t[g * b.nlevels + l] = g_array_index(b.index, int32_t, g * CS_HIER_MAX_LEVELS + l);
    ((cs_xml_platform *)x)->hier_table = t;
  }
  out->table = b.nlevels > 0 ? x->hier_table : NULL;
  g_array_free(b.index, TRUE);
}
