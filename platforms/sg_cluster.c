/* collsim's emulation of SimGrid 3.32's <cluster> zones (sg_cluster.h): the
 * common part.  Reads the attributes, picks the topology (one file each,
 * behind sg_cluster_impl.h), answers for the leaf links every cluster type
 * gives its hosts (loopback, limiter), dispatches the rest, and wraps a
 * cluster as a netmap. */
#include "platforms/sg_cluster_impl.h"
#include "sim/contracts/units.h"
#include "sim/contracts/errors.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* ---- attributes ---- */

static const cs_sgc_topology *const topologies[] = {&cs_sgc_flat, &cs_sgc_torus, &cs_sgc_fat_tree, &cs_sgc_dragonfly};

static const cs_sgc_topology *topology_named(const char *name)
{
  if (!name || !*name)
    return &cs_sgc_flat;
  for (size_t i = 0; i < G_N_ELEMENTS(topologies); i++)
    if (strcmp(topologies[i]->name, name) == 0)
      return topologies[i];
  return NULL;
}

static bool policy_named(const char *name, bool backbone, cs_sgc_policy *out)
{
  if (!name || !*name)
    *out = backbone ? CS_SGC_SHARED : CS_SGC_SPLITDUPLEX;
  else if (strcmp(name, "SHARED") == 0)
    *out = CS_SGC_SHARED;
  else if (strcmp(name, "FATPIPE") == 0)
    *out = CS_SGC_FATPIPE;
  else if (!backbone && (strcmp(name, "SPLITDUPLEX") == 0 || strcmp(name, "FULLDUPLEX") == 0))
    *out = CS_SGC_SPLITDUPLEX;
  else
    return false;
  return true;
}

/* An absent attribute (NAN) counts as SimGrid's default, 0. */
static double or_zero(double v) { return isnan(v) ? 0 : v; }

static void copy_attributes(cs_sg_cluster *c, const cs_sgc_params *p)
{
  c->id = g_strdup(p->id ? p->id : "");
  c->prefix = g_strdup(p->prefix ? p->prefix : "");
  c->suffix = g_strdup(p->suffix ? p->suffix : "");
  c->nhosts = p->nhosts;
  c->radical = g_memdup2(p->radical, sizeof(int64_t) * (size_t)p->nhosts);
  c->bw = p->bw;
  c->lat = p->lat;
  c->loopback_bw = or_zero(p->loopback_bw);
  c->loopback_lat = or_zero(p->loopback_lat);
  c->has_loopback = c->loopback_bw > 0 || c->loopback_lat > 0;
  c->limiter_bw = or_zero(p->limiter_link);
  c->has_limiter = c->limiter_bw > 0;
  c->bb_bw = or_zero(p->bb_bw);
  c->bb_lat = or_zero(p->bb_lat);
  c->has_backbone = c->bb_bw > 0 || c->bb_lat > 0;
}

static bool check_params(const cs_sgc_params *p, GError **err)
{
  const char *id = p->id ? p->id : "?";
  if (p->nhosts <= 0 || !p->radical)
    return cs_input_error(err, "cluster %s: no hosts (radical)", id);
  if (!topology_named(p->topology))
    return cs_input_error(err, "cluster %s: unknown topology '%s' (FLAT, TORUS, FAT_TREE or DRAGONFLY)", id,
                          p->topology);
  cs_sgc_policy unused;
  if (!policy_named(p->sharing_policy, false, &unused))
    return cs_input_error(err, "cluster %s: unknown sharing_policy '%s'", id, p->sharing_policy);
  if (!policy_named(p->bb_sharing_policy, true, &unused))
    return cs_input_error(err, "cluster %s: unknown bb_sharing_policy '%s'", id, p->bb_sharing_policy);
  if (!(p->bw >= 0) || !(p->lat >= 0))
    return cs_input_error(err, "cluster %s: bw and lat must be numbers >= 0", id);
  return true;
}

/* Routes hold link ids as int32_t. */
static bool check_size(const cs_sg_cluster *c, GError **err)
{
  if (c->nlinks >= INT32_MAX)
    return cs_input_error(err, "cluster %s: %" PRId64 " links, more than collsim handles (%d)", c->id, c->nlinks,
                          INT32_MAX - 1);
  return true;
}

static int tier_index(const cs_sg_cluster *c, const char *name)
{
  for (int t = 0; t < c->ntiers; t++)
    if (strcmp(c->tier_name[t], name) == 0)
      return t;
  return -1;
}

cs_sg_cluster *cs_sg_cluster_new(const cs_sgc_params *p, GError **err)
{
  if (!check_params(p, err))
    return NULL;
  cs_sg_cluster *c = g_new0(cs_sg_cluster, 1);
  copy_attributes(c, p);
  c->topo = topology_named(p->topology);
  policy_named(p->sharing_policy, false, &c->policy);
  policy_named(p->bb_sharing_policy, true, &c->bb_policy);
  cs_sgc_set_hosts(c, c->nhosts);
  if (c->topo == &cs_sgc_flat)
    c->router = p->router_id && *p->router_id ? g_strdup(p->router_id)
                                               : g_strdup_printf("%s%s_router%s", c->prefix, c->id, c->suffix);
  if (!c->topo->build(c, p->topo_parameters, err) || !check_size(c, err)) {
    cs_sg_cluster_free(c);
    return NULL;
  }
  c->ntiers = c->topo->tiers(c, c->tier_name, CS_NETMAP_MAX_TIERS);
  c->limiter_tier = tier_index(c, "limiter");
  c->intra_tier = tier_index(c, "intra");
  return c;
}

void cs_sg_cluster_free(cs_sg_cluster *c)
{
  if (!c)
    return;
  if (c->data)
    (c->topo->free_data ? c->topo->free_data : g_free)(c->data);
  g_free(c->id);
  g_free(c->prefix);
  g_free(c->suffix);
  g_free(c->router);
  g_free(c->radical);
  g_free(c);
}

/* ---- helpers for the topology files ---- */

static int leaf_links_per_host(const cs_sg_cluster *c) { return (c->has_loopback ? 1 : 0) + (c->has_limiter ? 1 : 0); }

void cs_sgc_set_hosts(cs_sg_cluster *c, int64_t n)
{
  g_assert(n >= 1 && n <= c->nhosts);
  c->nhosts = n;
  c->leaf_links = n * leaf_links_per_host(c);
}

int64_t cs_sgc_loopback_id(const cs_sg_cluster *c, int64_t h)
{
  return c->has_loopback ? h * leaf_links_per_host(c) : -1;
}

int64_t cs_sgc_limiter_id(const cs_sg_cluster *c, int64_t h)
{
  return c->has_limiter ? h * leaf_links_per_host(c) + (c->has_loopback ? 1 : 0) : -1;
}

int cs_sgc_leaf_tiers(const cs_sg_cluster *c, const char **names, int n, int max)
{
  if (c->has_limiter && n < max)
    names[n++] = "limiter";
  if (n < max)
    names[n++] = "intra";
  return n;
}

void cs_sgc_host_name(const cs_sg_cluster *c, int64_t h, GString *out)
{
  g_string_append_printf(out, "%s%" PRId64 "%s", c->prefix, c->radical[h], c->suffix);
}

void cs_sgc_limiter_name(const cs_sg_cluster *c, uint64_t n, GString *out)
{
  g_string_append_printf(out, "%s_link_%" PRIu64 "_limiter", c->id, n);
}

void cs_sgc_direction_suffix(const cs_sg_cluster *c, bool up, GString *out)
{
  if (c->policy == CS_SGC_SPLITDUPLEX)
    g_string_append(out, up ? "_UP" : "_DOWN");
}

int cs_sgc_links_per_duplex(const cs_sg_cluster *c) { return c->policy == CS_SGC_SPLITDUPLEX ? 2 : 1; }

static bool parse_count(const char *s, int64_t max, int64_t *out)
{
  if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 12)
    return false;
  *out = g_ascii_strtoll(s, NULL, 10);
  return *out >= 1 && *out <= max;
}

bool cs_sgc_parse_counts(const char *what, const char *text, char sep, int64_t *values, int max_values,
                         int *nvalues, int64_t max, GError **err)
{
  char sep_s[2] = {sep, 0};
  char **parts = g_strsplit(text ? text : "", sep_s, -1);
  int n = (int)g_strv_length(parts);
  bool ok = n >= 1 && n <= max_values;
  for (int i = 0; ok && i < n; i++)
    ok = parse_count(parts[i], max, &values[i]);
  g_strfreev(parts);
  if (!ok)
    return cs_input_error(err, "%s '%s': expected up to %d numbers 1..%" PRId64 " separated by '%c'", what,
                          text ? text : "", max_values, max, sep);
  *nvalues = n;
  return true;
}

/* ---- the leaf links (ids 0 .. leaf_links-1) ---- */

static bool is_leaf(const cs_sg_cluster *c, int64_t id) { return id < c->leaf_links; }
static int64_t leaf_host(const cs_sg_cluster *c, int64_t id) { return id / leaf_links_per_host(c); }
static bool leaf_is_loopback(const cs_sg_cluster *c, int64_t id)
{
  return c->has_loopback && id % leaf_links_per_host(c) == 0;
}

static void leaf_name(const cs_sg_cluster *c, int64_t id, GString *out)
{
  int64_t h = leaf_host(c, id);
  if (leaf_is_loopback(c, id))
    g_string_append_printf(out, "%s_link_%" PRId64 "_loopback", c->id, c->radical[h]);
  else
    cs_sgc_limiter_name(c, c->limiter_by_radical ? (uint64_t)c->radical[h] : (uint64_t)h, out);
}

/* ---- the interface (sg_cluster.h) ---- */

int64_t cs_sg_cluster_hosts(const cs_sg_cluster *c) { return c->nhosts; }

void cs_sg_cluster_host_name(const cs_sg_cluster *c, int64_t i, GString *out) { cs_sgc_host_name(c, i, out); }

const char *cs_sg_cluster_router(const cs_sg_cluster *c) { return c->router; }

int64_t cs_sg_cluster_nlinks(const cs_sg_cluster *c) { return c->nlinks; }

void cs_sg_cluster_link_name(const cs_sg_cluster *c, int64_t id, GString *out)
{
  if (is_leaf(c, id))
    leaf_name(c, id, out);
  else
    c->topo->link_name(c, id, out);
}

static int link_tier_index(const cs_sg_cluster *c, int64_t id)
{
  if (is_leaf(c, id))
    return leaf_is_loopback(c, id) ? c->intra_tier : c->limiter_tier;
  return c->topo->link_tier(c, id);
}

const char *cs_sg_cluster_link_tier(const cs_sg_cluster *c, int64_t id)
{
  int t = link_tier_index(c, id);
  return t >= 0 && t < c->ntiers ? c->tier_name[t] : "?";
}

bool cs_sg_cluster_link_ends(const cs_sg_cluster *c, int64_t id, GString *src, GString *dst)
{
  if (!is_leaf(c, id))
    return c->topo->link_ends(c, id, src, dst);
  /* a loopback or a limiter sits at its host */
  cs_sgc_host_name(c, leaf_host(c, id), src);
  cs_sgc_host_name(c, leaf_host(c, id), dst);
  return true;
}

double cs_sg_cluster_link_bandwidth(const cs_sg_cluster *c, int64_t id)
{
  if (is_leaf(c, id))
    return leaf_is_loopback(c, id) ? c->loopback_bw : c->limiter_bw;
  return c->topo->link_bandwidth(c, id);
}

double cs_sg_cluster_link_latency(const cs_sg_cluster *c, int64_t id)
{
  if (is_leaf(c, id))
    return leaf_is_loopback(c, id) ? c->loopback_lat : 0;
  return c->topo->link_latency(c, id);
}

static bool endpoint_ok(const cs_sg_cluster *c, int64_t h) { return h == CS_SGC_ROUTER || (h >= 0 && h < c->nhosts); }

int cs_sg_cluster_route(const cs_sg_cluster *c, int64_t a, int64_t b, int32_t *links, int cap)
{
  if (!endpoint_ok(c, a) || !endpoint_ok(c, b))
    return -1;
  return c->topo->route(c, a, b, links, cap);
}

int cs_sg_cluster_tiers(const cs_sg_cluster *c, const char **names, int max)
{
  int n = c->ntiers < max ? c->ntiers : max;
  memcpy(names, c->tier_name, sizeof(const char *) * (size_t)n);
  return n;
}

void cs_sg_cluster_hierarchy(const cs_sg_cluster *c, int64_t cores, cs_hierarchy *out)
{
  memset(out, 0, sizeof *out);
  c->topo->hierarchy(c, cores, out);
}

/* ---- the netmap ---- */

/* The cluster, plus SimGrid's "__loopback__" (id c->nlinks) when a host's
 * route to itself is empty in the cluster. */
typedef struct sgc_map {
  cs_sg_cluster *c;
  bool internal_loopback;
} sgc_map;

#define INTERNAL_LOOPBACK_BW 10e9 /* SimGrid's network/loopback-bw default */
#define INTERNAL_LOOPBACK_LAT 0.0 /* network/loopback-lat */

static const sgc_map *map_of(const cs_netmap *m) { return m->data; }
static bool is_internal(const cs_netmap *m, int64_t id) { return id == map_of(m)->c->nlinks; }

static void map_link_name(const cs_netmap *m, int64_t id, GString *out)
{
  if (is_internal(m, id))
    g_string_append(out, "__loopback__");
  else
    cs_sg_cluster_link_name(map_of(m)->c, id, out);
}

/* The netmap's tiers are the cluster's, in the same order. */
static int map_link_tier(const cs_netmap *m, int64_t id)
{
  const cs_sg_cluster *c = map_of(m)->c;
  return is_internal(m, id) ? c->intra_tier : link_tier_index(c, id);
}

static bool map_link_ends(const cs_netmap *m, int64_t id, GString *src, GString *dst)
{
  if (!is_internal(m, id))
    return cs_sg_cluster_link_ends(map_of(m)->c, id, src, dst);
  g_string_append(src, "*");
  g_string_append(dst, "*");
  return true;
}

static double map_link_bandwidth(const cs_netmap *m, int64_t id)
{
  return is_internal(m, id) ? INTERNAL_LOOPBACK_BW : cs_sg_cluster_link_bandwidth(map_of(m)->c, id);
}

static double map_link_latency(const cs_netmap *m, int64_t id)
{
  return is_internal(m, id) ? INTERNAL_LOOPBACK_LAT : cs_sg_cluster_link_latency(map_of(m)->c, id);
}

static int map_route(const cs_netmap *m, int64_t a, int64_t b, int32_t *links, int cap)
{
  const sgc_map *s = map_of(m);
  if (a < 0 || b < 0 || a >= s->c->nhosts || b >= s->c->nhosts)
    return -1;
  int n = cs_sg_cluster_route(s->c, a, b, links, cap);
  if (n == 0 && a == b && s->internal_loopback)
    cs_sgc_push(links, cap, &n, s->c->nlinks);
  return n;
}

static void map_free(void *data)
{
  sgc_map *s = data;
  cs_sg_cluster_free(s->c);
  g_free(s);
}

static const cs_netmap_ops sgc_map_ops = {
    .link_name = map_link_name,
    .link_tier = map_link_tier,
    .link_ends = map_link_ends,
    .link_bandwidth = map_link_bandwidth,
    .link_latency = map_link_latency,
    .link_internal = is_internal,
    .route = map_route,
    .free_data = map_free,
};

cs_netmap *cs_sg_cluster_netmap(cs_sg_cluster *c)
{
  sgc_map *s = g_new0(sgc_map, 1);
  s->c = c;
  int32_t probe[CS_NETMAP_MAX_HOPS];
  s->internal_loopback = cs_sg_cluster_route(c, 0, 0, probe, CS_NETMAP_MAX_HOPS) == 0;
  cs_netmap *m = cs_netmap_new(&sgc_map_ops, s, c->nhosts, c->nlinks + (s->internal_loopback ? 1 : 0));
  for (int t = 0; t < c->ntiers; t++)
    cs_netmap_tier(m, c->tier_name[t]);
  return m;
}

/* ---- the element, written ---- */

int64_t *cs_sgc_radical_range(int64_t first, int64_t n)
{
  int64_t *r = g_new(int64_t, n > 0 ? n : 1);
  for (int64_t i = 0; i < n; i++)
    r[i] = first + i;
  return r;
}

/* " name=\"<value><unit>\"" for a present value (not NAN). */
static void put_value(GString *s, const char *name, double v, const char *unit)
{
  if (isnan(v))
    return;
  char num[40];
  cs_shortest_double(num, sizeof num, v);
  g_string_append_printf(s, " %s=\"%s%s\"", name, num, unit);
}

static void put_text(GString *s, const char *name, const char *v)
{
  if (v)
    g_string_append_printf(s, " %s=\"%s\"", name, v);
}

/* "0-3,7,10-11": runs of consecutive numbers. */
static void put_radical(GString *s, const int64_t *r, int64_t n)
{
  g_string_append(s, " radical=\"");
  for (int64_t i = 0; i < n;) {
    int64_t j = i;
    while (j + 1 < n && r[j + 1] == r[j] + 1)
      j++;
    g_string_append_printf(s, "%s%" PRId64, i ? "," : "", r[i]);
    if (j > i)
      g_string_append_printf(s, "-%" PRId64, r[j]);
    i = j + 1;
  }
  g_string_append_c(s, '"');
}

bool cs_sg_cluster_write_xml(FILE *out, const char *indent, const cs_sgc_params *p, double speed, int cores)
{
  GString *s = g_string_new(indent);
  g_string_append(s, "<cluster");
  put_text(s, "id", p->id);
  put_text(s, "prefix", p->prefix ? p->prefix : "");
  put_text(s, "suffix", p->suffix ? p->suffix : "");
  put_radical(s, p->radical, p->nhosts);
  put_value(s, "speed", speed, "f");
  g_string_append_printf(s, " core=\"%d\"", cores);
  put_value(s, "bw", p->bw, "Bps");
  put_value(s, "lat", p->lat, "s");
  put_text(s, "topology", p->topology);
  put_text(s, "topo_parameters", p->topo_parameters);
  put_text(s, "sharing_policy", p->sharing_policy);
  put_value(s, "loopback_bw", p->loopback_bw, "Bps");
  put_value(s, "loopback_lat", p->loopback_lat, "s");
  put_value(s, "limiter_link", p->limiter_link, "Bps");
  put_value(s, "bb_bw", p->bb_bw, "Bps");
  put_value(s, "bb_lat", p->bb_lat, "s");
  put_text(s, "bb_sharing_policy", p->bb_sharing_policy);
  put_text(s, "router_id", p->router_id);
  g_string_append(s, "/>\n");
  bool ok = fwrite(s->str, 1, s->len, out) == s->len;
  g_string_free(s, TRUE);
  return ok;
}
