/* Route oracle (sg_routes.h): the platform's own routes, composed from cached
 * parts.
 *
 * SimGrid 3.32's hierarchical routing (NetZoneImpl::get_global_route): when
 * the lowest common zone of hosts a and b is C, a lies in child zone Ca of C
 * and b in child zone Cb != Ca, C's zoneRoute from Ca to Cb gives gateways
 * ga, gb and links M, and
 *     route(a, b) = route(a, ga) ++ M ++ route(gb, b)
 * (the first part empty when a == ga, the last when gb == b).  So route(a, b)
 * = F(a) ++ G(b), F depending only on a and G only on b (Ca, Cb fixed).  We
 * never ask which the gateways are: with representatives a0 (first node of
 * Ca) and b0 (first node of Cb) the queries give
 *     route(a, b0) = F(a) ++ G(b0),  route(a0, b0) = F(a0) ++ G(b0),
 *     route(a0, b) = F(a0) ++ G(b).
 * Let S be the longest common suffix of route(a, b0) and route(a0, b0), X(a)
 * route(a, b0) without S and k(a) = |route(a0, b0)| - |S|.  S is G(b0) after a
 * common tail T of F(a) and F(a0): F(a) = X(a) ++ T, F(a0) = Y ++ T with
 * |Y| = k(a).  Hence route(a, b) = X(a) ++ route(a0, b)[k(a):].  A pair of
 * sibling zones costs |Ca| + |Cb| queries instead of |Ca| * |Cb|, and the
 * zones may nest (Dragonfly: groups > routers): the rule applies at the level
 * where a's and b's zones part.
 *
 * Pairs of nodes lying directly in one zone are asked directly and cached per
 * pair.  Bypass routes break the rule, so a platform file with a bypassRoute
 * or bypassZoneRoute (or an <include>, which we do not follow) is routed pair
 * by pair.  As a guard, a table is used only if route(a0, b) starts with
 * route(a0, b0)[:max k(a)] for every b; otherwise that pair of zones falls back
 * to direct queries.  tests/unit/sg_routes.c checks composed == direct for every
 * ordered pair of several PERCS and Dragonfly platforms.
 *
 * Routes are asked before simgrid_run: on these platforms (explicit routes in
 * Full zones) they are the same before and during the run, loopback included.
 *
 * Link tiers and endpoints come from the platform file (the C API has no
 * link properties, nor a link's netpoints): one GMarkup pass records
 * <prop id="tier"> inside each <link> and the ends of every route or
 * zoneRoute made of one link; links that SimGrid makes itself (cluster
 * elements: the torus, the SMP clusters) get theirs from the platform
 * family, by name (cs_link_namer).
 */
#include "sim/engine/sg_routes.h"
#include "sim/contracts/natural_order.h"

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/zone.h>
#include <xbt/dict.h>
#include <xbt/dynar.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stored route or route part: pool[off .. off+len); skip: see k(a) above. */
typedef struct seg {
  uint32_t off;
  uint16_t len, skip;
} seg;
#define SEG_UNSET UINT32_MAX
#define DCACHE_MAX ((int64_t)1 << 22) /* pairs of one zone cached densely (32 MiB) */

/* Parts for one ordered pair of sibling zones (Ca, Cb). */
typedef struct ztable {
  bool direct; /* the guard failed: ask SimGrid pair by pair */
  seg *pre;    /* X(a), k(a) per node of Ca (by position in Ca's node list) */
  seg *suf;    /* route(a0, b) per node of Cb */
} ztable;

typedef struct zone {
  int parent, depth, child_index; /* child_index among the parent's children holding nodes */
  int nchildren;
  int64_t *sub, nsub; /* nodes of the subtree, ascending */
  int64_t ndirect;    /* nodes lying directly in this zone */
  seg *dcache;        /* ndirect^2 routes between them, lazily filled */
  ztable **tables;    /* nchildren^2, lazily built */
} zone;

struct cs_routes {
  int64_t nodes;
  sg_host_t *host;
  /* links, by id */
  int64_t nlinks;
  sg_link_t *link;
  GHashTable *link_id; /* sg_link_t -> id + 1 */
  int *tier_of;
  const char **src, **dst; /* endpoints per link, interned */
  const char **tier; /* interned, sorted */
  int64_t *tier_count;
  int ntiers;
  /* zone tree, restricted to zones holding nodes */
  zone *zone;
  int nzones, levels; /* levels = deepest depth + 1 */
  int *zone_at;       /* [g * levels + d]: zone of node g at depth d (d <= leaf_depth[g]) */
  int64_t *pos_at;    /* [g * levels + d]: position of g in that zone's node list */
  int *leaf_depth;
  int64_t *dpos; /* position of g among the nodes directly in its zone */
  bool compose;
  /* storage */
  int32_t *pool;
  int64_t npool, pool_cap;
  int32_t *buf, *q; /* result; query scratch */
  int64_t buf_cap, q_cap;
  xbt_dynar_t dyn;
  int64_t queries;
};

/* ---- helpers ---- */

static int32_t *reserve(int32_t *p, int64_t *cap, int64_t need)
{
  if (need <= *cap)
    return p;
  while (*cap < need)
    *cap = *cap ? 2 * *cap : 64;
  return g_renew(int32_t, p, *cap);
}

static int link_cmp(const void *a, const void *b)
{
  return cs_natural_cmp(sg_link_get_name(*(const sg_link_t *)a), sg_link_get_name(*(const sg_link_t *)b));
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* ---- tiers from the platform file ---- */

typedef struct ends {
  const char *src, *dst; /* interned */
} ends;

typedef struct scan {
  GHashTable *tier; /* link name -> interned tier */
  GHashTable *ends; /* link name -> ends (first declaration wins) */
  char *link;       /* inside this <link> */
  bool bypass;      /* bypass routes or includes seen */
  /* inside a <route> or <zoneRoute>: its ends, symmetry, links so far and
   * the first one (its name with the direction's suffix, and the other
   * half's for a split-duplex link, else NULL) */
  const char *rsrc, *rdst;
  bool in_route, symmetrical;
  int nlinks;
  char *first, *first_reverse;
} scan;

static const char *attr(const gchar **names, const gchar **values, const char *key)
{
  for (; *names; names++, values++)
    if (strcmp(*names, key) == 0)
      return *values;
  return NULL;
}

static void add_ends(scan *s, const char *link, const char *src, const char *dst)
{
  if (g_hash_table_contains(s->ends, link))
    return;
  ends *e = g_new(ends, 1);
  *e = (ends){g_intern_string(src), g_intern_string(dst)};
  g_hash_table_insert(s->ends, g_strdup(link), e);
}

static void route_start(scan *s, const char *src, const char *dst, const char *symmetrical)
{
  s->in_route = src && dst;
  s->rsrc = g_intern_string(src);
  s->rdst = g_intern_string(dst);
  s->symmetrical = !symmetrical || g_ascii_strcasecmp(symmetrical, "NO") != 0; /* the DTD's default: YES */
  s->nlinks = 0;
}

/* A <link_ctn>: SimGrid names the halves of a split-duplex link id_UP and
 * id_DOWN. */
static void route_link(scan *s, const char *id, const char *direction)
{
  if (!s->in_route || !id || s->nlinks++ > 0)
    return;
  bool up = direction && strcmp(direction, "UP") == 0, down = direction && strcmp(direction, "DOWN") == 0;
  s->first = up || down ? g_strconcat(id, up ? "_UP" : "_DOWN", NULL) : g_strdup(id);
  s->first_reverse = up || down ? g_strconcat(id, up ? "_DOWN" : "_UP", NULL) : NULL;
}

static void route_end(scan *s)
{
  if (s->in_route && s->nlinks == 1) {
    add_ends(s, s->first, s->rsrc, s->rdst);
    if (s->symmetrical && s->first_reverse)
      add_ends(s, s->first_reverse, s->rdst, s->rsrc);
  }
  s->in_route = false;
  g_clear_pointer(&s->first, g_free);
  g_clear_pointer(&s->first_reverse, g_free);
}

static bool is_zone_route(const char *el) { return strcmp(el, "zoneRoute") == 0 || strcmp(el, "ASroute") == 0; }

static void scan_start(GMarkupParseContext *ctx, const gchar *el, const gchar **names, const gchar **values,
                       gpointer user, GError **err)
{
  (void)ctx;
  (void)err;
  scan *s = user;
  if (strcmp(el, "link") == 0) {
    g_free(s->link);
    s->link = g_strdup(attr(names, values, "id"));
  } else if (strcmp(el, "prop") == 0 && s->link) {
    const char *id = attr(names, values, "id"), *value = attr(names, values, "value");
    if (id && value && strcmp(id, "tier") == 0)
      g_hash_table_replace(s->tier, g_strdup(s->link), (gpointer)g_intern_string(value));
  } else if (strcmp(el, "route") == 0) {
    route_start(s, attr(names, values, "src"), attr(names, values, "dst"), attr(names, values, "symmetrical"));
  } else if (is_zone_route(el)) {
    route_start(s, attr(names, values, "gw_src"), attr(names, values, "gw_dst"), attr(names, values, "symmetrical"));
  } else if (strcmp(el, "link_ctn") == 0) {
    route_link(s, attr(names, values, "id"), attr(names, values, "direction"));
  } else if (g_str_has_prefix(el, "bypass") || strcmp(el, "include") == 0) {
    s->bypass = true;
  }
}

static void scan_end(GMarkupParseContext *ctx, const gchar *el, gpointer user, GError **err)
{
  (void)ctx;
  (void)err;
  scan *s = user;
  if (strcmp(el, "link") == 0)
    g_clear_pointer(&s->link, g_free);
  else if (strcmp(el, "route") == 0 || is_zone_route(el))
    route_end(s);
}

static bool scan_platform(const char *path, scan *s, GError **err)
{
  GMarkupParser parser = {scan_start, scan_end, NULL, NULL, NULL};
  bool ok = cs_xml_parse_file(path, &parser, s, err);
  g_clear_pointer(&s->link, g_free);
  route_end(s);
  return ok;
}

static scan scan_new(void)
{
  return (scan){.tier = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                .ends = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)};
}

static void scan_clear(scan *s)
{
  g_hash_table_destroy(s->tier);
  g_hash_table_destroy(s->ends);
}

/* ---- links ---- */

#define INTERNAL_LOOPBACK "__loopback__"

/* Link i's tier: the file's property, else the namer's; SimGrid's own
 * loopback carries traffic inside a node. */
static const char *link_tier(const scan *s, const cs_link_namer *namer, const char *name)
{
  const char *t = g_hash_table_lookup(s->tier, name);
  if (!t && namer && namer->tier)
    t = namer->tier(namer->user, name);
  if (!t && strcmp(name, INTERNAL_LOOPBACK) == 0)
    t = "intra";
  return g_intern_string(t ? t : "?");
}

/* Link i's endpoints: the file's one-link routes, else the namer's; SimGrid's
 * own loopback serves every host ("*"). */
static void link_ends(cs_routes *r, int64_t i, const scan *s, const cs_link_namer *namer, const char *name)
{
  const ends *e = g_hash_table_lookup(s->ends, name);
  char *src = NULL, *dst = NULL;
  if (e) {
    r->src[i] = e->src;
    r->dst[i] = e->dst;
  } else if (namer && namer->ends && namer->ends(namer->user, name, &src, &dst)) {
    r->src[i] = g_intern_string(src);
    r->dst[i] = g_intern_string(dst);
  } else {
    r->src[i] = r->dst[i] = g_intern_static_string(strcmp(name, INTERNAL_LOOPBACK) == 0 ? "*" : "?");
  }
  g_free(src);
  g_free(dst);
}

static void setup_tiers(cs_routes *r, const char **tier)
{
  GPtrArray *names = g_ptr_array_new();
  for (int64_t i = 0; i < r->nlinks; i++)
    if (!g_ptr_array_find(names, tier[i], NULL))
      g_ptr_array_add(names, (gpointer)tier[i]);
  g_ptr_array_sort(names, str_cmp);
  r->ntiers = (int)names->len;
  r->tier = (const char **)g_ptr_array_free(names, FALSE);
  r->tier_count = g_new0(int64_t, r->ntiers);
  r->tier_of = g_new(int, r->nlinks);
  for (int64_t i = 0; i < r->nlinks; i++) {
    int t = 0;
    while (r->tier[t] != tier[i]) /* interned: pointer equality */
      t++;
    r->tier_of[i] = t;
    r->tier_count[t]++;
  }
}

static void setup_links(cs_routes *r, const scan *s, const cs_link_namer *namer)
{
  r->nlinks = (int64_t)sg_link_count();
  r->link = sg_link_list();
  qsort(r->link, (size_t)r->nlinks, sizeof *r->link, link_cmp);
  r->link_id = g_hash_table_new(g_direct_hash, g_direct_equal);
  r->src = g_new(const char *, r->nlinks);
  r->dst = g_new(const char *, r->nlinks);
  const char **tier = g_new(const char *, r->nlinks);
  for (int64_t i = 0; i < r->nlinks; i++) {
    g_hash_table_insert(r->link_id, r->link[i], GINT_TO_POINTER((int)(i + 1)));
    const char *name = sg_link_get_name(r->link[i]);
    tier[i] = link_tier(s, namer, name);
    link_ends(r, i, s, namer, name);
  }
  setup_tiers(r, tier);
  g_free(tier);
}

/* ---- zones ---- */

static int add_zones(GArray *zones, GPtrArray *handles, sg_netzone_t z, int parent, int depth)
{
  int idx = (int)zones->len;
  zone nz = {.parent = parent, .depth = depth, .child_index = -1};
  g_array_append_val(zones, nz);
  g_ptr_array_add(handles, z);
  xbt_dict_t sons = xbt_dict_new_homogeneous(NULL);
  sg_zone_get_sons(z, sons);
  xbt_dict_cursor_t cursor = NULL;
  char *key;
  sg_netzone_t son;
  xbt_dict_foreach (sons, cursor, key, son)
    add_zones(zones, handles, son, idx, depth + 1);
  xbt_dict_free(&sons);
  return idx;
}

/* Host -> index of the zone it lies directly in. */
static GHashTable *host_zones(GPtrArray *handles)
{
  GHashTable *h = g_hash_table_new(g_direct_hash, g_direct_equal);
  xbt_dynar_t hosts = xbt_dynar_new(sizeof(sg_host_t), NULL);
  for (guint i = 0; i < handles->len; i++) {
    xbt_dynar_reset(hosts);
    sg_zone_get_hosts(g_ptr_array_index(handles, i), hosts);
    for (unsigned long k = 0; k < xbt_dynar_length(hosts); k++)
      g_hash_table_insert(h, xbt_dynar_get_as(hosts, k, sg_host_t), GINT_TO_POINTER((int)i + 1));
  }
  xbt_dynar_free(&hosts);
  return h;
}

static void fill_paths(cs_routes *r, const int *leaf)
{
  r->zone_at = g_new(int, r->nodes * r->levels);
  r->pos_at = g_new(int64_t, r->nodes * r->levels);
  r->leaf_depth = g_new(int, r->nodes);
  GArray **sub = g_new(GArray *, r->nzones);
  for (int z = 0; z < r->nzones; z++)
    sub[z] = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int64_t g = 0; g < r->nodes; g++) {
    int d = r->leaf_depth[g] = r->zone[leaf[g]].depth;
    for (int z = leaf[g]; z >= 0; z = r->zone[z].parent, d--) {
      r->zone_at[g * r->levels + d] = z;
      r->pos_at[g * r->levels + d] = sub[z]->len;
      g_array_append_val(sub[z], g);
    }
  }
  for (int z = 0; z < r->nzones; z++) {
    r->zone[z].nsub = sub[z]->len;
    r->zone[z].sub = (int64_t *)g_array_free(sub[z], FALSE);
  }
  g_free(sub);
}

static void setup_children(cs_routes *r)
{
  for (int z = 0; z < r->nzones; z++) {
    zone *c = &r->zone[z];
    if (c->parent >= 0 && c->nsub > 0)
      c->child_index = r->zone[c->parent].nchildren++;
  }
  for (int z = 0; z < r->nzones; z++) {
    int k = r->zone[z].nchildren;
    r->zone[z].tables = k ? g_new0(ztable *, (size_t)k * k) : NULL;
  }
}

static bool setup_zones(cs_routes *r, GError **err)
{
  GArray *zones = g_array_new(FALSE, FALSE, sizeof(zone));
  GPtrArray *handles = g_ptr_array_new();
  add_zones(zones, handles, sg_zone_get_root(), -1, 0);
  r->nzones = (int)zones->len;
  r->zone = (zone *)g_array_free(zones, FALSE);
  GHashTable *where = host_zones(handles);
  g_ptr_array_free(handles, TRUE);
  int *leaf = g_new(int, r->nodes);
  r->levels = 1;
  bool ok = true;
  for (int64_t g = 0; ok && g < r->nodes; g++) {
    leaf[g] = GPOINTER_TO_INT(g_hash_table_lookup(where, r->host[g])) - 1;
    if (leaf[g] < 0) {
      g_set_error(err, CS_INPUT_ERROR, 1, "host %s is in no zone", sg_host_get_name(r->host[g]));
      ok = false;
    } else if (r->zone[leaf[g]].depth + 1 > r->levels) {
      r->levels = r->zone[leaf[g]].depth + 1;
    }
  }
  g_hash_table_destroy(where);
  if (ok) {
    fill_paths(r, leaf);
    setup_children(r);
    r->dpos = g_new(int64_t, r->nodes);
    for (int64_t g = 0; g < r->nodes; g++)
      r->dpos[g] = r->zone[leaf[g]].ndirect++;
  }
  g_free(leaf);
  return ok;
}

/* ---- queries and storage ---- */

/* Route a -> b from SimGrid into r->q; returns its length. */
static int query(cs_routes *r, int64_t a, int64_t b)
{
  xbt_dynar_reset(r->dyn);
  sg_host_get_route(r->host[a], r->host[b], r->dyn);
  r->queries++;
  int64_t n = (int64_t)xbt_dynar_length(r->dyn);
  r->q = reserve(r->q, &r->q_cap, n);
  for (int64_t i = 0; i < n; i++) {
    sg_link_t l = xbt_dynar_get_as(r->dyn, i, sg_link_t);
    int id = GPOINTER_TO_INT(g_hash_table_lookup(r->link_id, l));
    if (id == 0)
      g_error("route of nodes %lld -> %lld uses link %s, which sg_link_list() did not list", (long long)a,
              (long long)b, sg_link_get_name(l));
    r->q[i] = id - 1;
  }
  return (int)n;
}

static seg store(cs_routes *r, const int32_t *ids, int n)
{
  if (n > UINT16_MAX || r->npool + n >= (int64_t)SEG_UNSET)
    g_error("route store overflow (%d links, %lld stored)", n, (long long)r->npool);
  r->pool = reserve(r->pool, &r->pool_cap, r->npool + n);
  memcpy(r->pool + r->npool, ids, (size_t)n * sizeof *ids);
  seg s = {(uint32_t)r->npool, (uint16_t)n, 0};
  r->npool += n;
  return s;
}

static int direct(cs_routes *r, int64_t a, int64_t b, const int32_t **links)
{
  int n = query(r, a, b);
  *links = r->q;
  return n;
}

/* Both nodes directly in zone z. */
static int cached_direct(cs_routes *r, zone *z, int64_t a, int64_t b, const int32_t **links)
{
  if (!z->dcache) {
    if (z->ndirect * z->ndirect > DCACHE_MAX)
      return direct(r, a, b, links);
    z->dcache = g_new(seg, z->ndirect * z->ndirect);
    for (int64_t i = 0; i < z->ndirect * z->ndirect; i++)
      z->dcache[i].off = SEG_UNSET;
  }
  seg *s = &z->dcache[r->dpos[a] * z->ndirect + r->dpos[b]];
  if (s->off == SEG_UNSET) {
    int n = query(r, a, b);
    *s = store(r, r->q, n);
  }
  *links = r->pool + s->off;
  return s->len;
}

static ztable *build_table(cs_routes *r, const zone *ca, const zone *cb)
{
  ztable *t = g_new0(ztable, 1);
  t->pre = g_new(seg, ca->nsub);
  t->suf = g_new(seg, cb->nsub);
  int64_t a0 = ca->sub[0], b0 = cb->sub[0];
  int n00 = query(r, a0, b0);
  int32_t *r00 = g_memdup2(r->q, (gsize)n00 * sizeof *r00);
  for (int64_t i = 0; i < cb->nsub; i++) {
    int n = i == 0 ? n00 : query(r, a0, cb->sub[i]);
    t->suf[i] = store(r, i == 0 ? r00 : r->q, n);
  }
  int kmax = 0;
  for (int64_t i = 0; i < ca->nsub; i++) {
    int n = i == 0 ? n00 : query(r, ca->sub[i], b0);
    const int32_t *ra = i == 0 ? r00 : r->q;
    int s = 0;
    while (s < n && s < n00 && ra[n - 1 - s] == r00[n00 - 1 - s])
      s++;
    t->pre[i] = store(r, ra, n - s);
    t->pre[i].skip = (uint16_t)(n00 - s);
    kmax = MAX(kmax, n00 - s);
  }
  for (int64_t i = 0; i < cb->nsub && !t->direct; i++)
    t->direct = t->suf[i].len < kmax || memcmp(r->pool + t->suf[i].off, r00, (size_t)kmax * sizeof *r00) != 0;
  g_free(r00);
  return t;
}

/* ---- API ---- */

static int host_name_cmp(const void *a, const void *b)
{
  return cs_natural_cmp(sg_host_get_name(*(const sg_host_t *)a), sg_host_get_name(*(const sg_host_t *)b));
}

/* Node g is the g-th host in natural order of names, as the engine places
 * ranks (sim/engine/sg_engine.c). */
static bool hosts_in_order(cs_routes *r, const char *file, GError **err)
{
  size_t count = sg_host_count();
  if ((int64_t)count < r->nodes) {
    g_set_error(err, CS_INPUT_ERROR, 1, "platform %s has %zu hosts; the run needs %lld", file, count,
                (long long)r->nodes);
    return false;
  }
  sg_host_t *all = sg_host_list();
  qsort(all, count, sizeof *all, host_name_cmp);
  r->host = g_new(sg_host_t, r->nodes);
  memcpy(r->host, all, (size_t)r->nodes * sizeof *all);
  free(all);
  return true;
}

cs_routes *cs_routes_open(const cs_engine_config *cfg, int64_t nodes, const cs_link_namer *namer, GError **err)
{
  if (nodes < 1) {
    g_set_error(err, CS_INPUT_ERROR, 1, "route oracle: %lld nodes", (long long)nodes);
    return NULL;
  }
  scan s = scan_new();
  if (!scan_platform(cfg->platform_file, &s, err) || !cs_engine_load(cfg, err)) {
    scan_clear(&s);
    return NULL;
  }
  cs_routes *r = g_new0(cs_routes, 1);
  r->nodes = nodes;
  r->compose = !s.bypass;
  r->dyn = xbt_dynar_new(sizeof(sg_link_t), NULL);
  if (!hosts_in_order(r, cfg->platform_file, err)) {
    scan_clear(&s);
    cs_routes_close(r);
    return NULL;
  }
  setup_links(r, &s, namer);
  scan_clear(&s);
  if (!setup_zones(r, err)) {
    cs_routes_close(r);
    return NULL;
  }
  return r;
}

void cs_routes_close(cs_routes *r)
{
  if (!r)
    return;
  for (int z = 0; r->zone && z < r->nzones; z++) {
    zone *c = &r->zone[z];
    for (int i = 0; c->tables && i < c->nchildren * c->nchildren; i++) {
      if (c->tables[i]) {
        g_free(c->tables[i]->pre);
        g_free(c->tables[i]->suf);
        g_free(c->tables[i]);
      }
    }
    g_free(c->tables);
    g_free(c->sub);
    g_free(c->dcache);
  }
  g_free(r->zone);
  g_free(r->zone_at);
  g_free(r->pos_at);
  g_free(r->leaf_depth);
  g_free(r->dpos);
  if (r->link_id)
    g_hash_table_destroy(r->link_id);
  free(r->link); /* from sg_link_list (malloc) */
  g_free(r->tier_of);
  g_free(r->src);
  g_free(r->dst);
  g_free(r->tier);
  g_free(r->tier_count);
  g_free(r->host);
  g_free(r->pool);
  g_free(r->buf);
  g_free(r->q);
  xbt_dynar_free(&r->dyn);
  g_free(r);
}

int64_t cs_routes_nodes(const cs_routes *r) { return r->nodes; }
int64_t cs_routes_nlinks(const cs_routes *r) { return r->nlinks; }
const char *cs_routes_link_name(const cs_routes *r, int64_t id) { return sg_link_get_name(r->link[id]); }
const char *cs_routes_link_tier(const cs_routes *r, int64_t id) { return r->tier[r->tier_of[id]]; }
const char *cs_routes_link_src(const cs_routes *r, int64_t id) { return r->src[id]; }
const char *cs_routes_link_dst(const cs_routes *r, int64_t id) { return r->dst[id]; }

gboolean cs_routes_link_internal(const cs_routes *r, int64_t id)
{
  return strcmp(sg_link_get_name(r->link[id]), INTERNAL_LOOPBACK) == 0;
}
double cs_routes_link_bandwidth(const cs_routes *r, int64_t id) { return sg_link_get_bandwidth(r->link[id]); }
double cs_routes_link_latency(const cs_routes *r, int64_t id) { return sg_link_get_latency(r->link[id]); }
int cs_routes_ntiers(const cs_routes *r) { return r->ntiers; }
const char *cs_routes_tier_name(const cs_routes *r, int tier) { return r->tier[tier]; }
int cs_routes_link_tier_index(const cs_routes *r, int64_t id) { return r->tier_of[id]; }
int64_t cs_routes_queries(const cs_routes *r) { return r->queries; }

int64_t cs_routes_tier_count(const cs_routes *r, const char *tier)
{
  for (int t = 0; t < r->ntiers; t++)
    if (strcmp(r->tier[t], tier) == 0)
      return r->tier_count[t];
  return 0;
}

int cs_routes_get_direct(cs_routes *r, int64_t a, int64_t b, const int32_t **links)
{
  if (a < 0 || b < 0 || a >= r->nodes || b >= r->nodes)
    return -1;
  return direct(r, a, b, links);
}

int cs_routes_get_self(cs_routes *r, int64_t a, const int32_t **links)
{
  if (a < 0 || a >= r->nodes)
    return -1;
  return direct(r, a, a, links);
}

int cs_routes_get(cs_routes *r, int64_t a, int64_t b, const int32_t **links)
{
  if (a < 0 || b < 0 || a >= r->nodes || b >= r->nodes)
    return -1;
  if (!r->compose)
    return cs_routes_get_direct(r, a, b, links);
  const int L = r->levels, la = r->leaf_depth[a], lb = r->leaf_depth[b];
  const int *pa = r->zone_at + a * L, *pb = r->zone_at + b * L;
  int d = 1; /* first depth where the paths part */
  while (d <= la && d <= lb && pa[d] == pb[d])
    d++;
  if (d > la || d > lb) /* a or b lies directly in the common zone */
    return la == lb ? cached_direct(r, &r->zone[pa[la]], a, b, links) : direct(r, a, b, links);
  zone *c = &r->zone[pa[d - 1]], *ca = &r->zone[pa[d]], *cb = &r->zone[pb[d]];
  ztable **slot = &c->tables[ca->child_index * c->nchildren + cb->child_index];
  if (!*slot)
    *slot = build_table(r, ca, cb);
  if ((*slot)->direct)
    return direct(r, a, b, links);
  const seg *x = &(*slot)->pre[r->pos_at[a * L + d]], *y = &(*slot)->suf[r->pos_at[b * L + d]];
  int n = x->len + y->len - x->skip;
  r->buf = reserve(r->buf, &r->buf_cap, n);
  memcpy(r->buf, r->pool + x->off, (size_t)x->len * sizeof *r->buf);
  memcpy(r->buf + x->len, r->pool + y->off + x->skip, (size_t)(y->len - x->skip) * sizeof *r->buf);
  *links = r->buf;
  return n;
}
