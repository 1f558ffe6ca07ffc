/* Validation of a user's SimGrid platform file (SimGrid 3.32, platform
 * version 4.1) before SimGrid loads it: SimGrid aborts the process, with a
 * backtrace, on a route it cannot find or a bandwidth of zero, and accepts
 * a negative latency or a speed of "nan" only to go wrong later.
 *
 * Reading (cs_xml_platform_read), the first problem is refused:
 *  - XML that GMarkup cannot parse, a root other than <platform>, no host;
 *  - a value SimGrid would not read: not a number, out of double's range,
 *    a unit not in SimGrid's tables (xbt_parse_units: speeds f, kf .. Yf,
 *    flops, kiloflops .. yottaflops (SimGrid spells it zetaflops);
 *    bandwidths bps and Bps with k .. Y and Ki .. Yi; times w d h m s ms us
 *    ns ps; a bare number is SimGrid's deprecated default unit and passes);
 *  - a value out of range: every speed (each of a host's pstates) and
 *    bandwidth finite and > 0, every latency finite and >= 0, core counts
 *    whole and >= 1, several bandwidths only on a WIFI link;
 *  - a cluster radical that is not "A-B,C,..", a host named twice, more
 *    than 2^22 hosts, zones nested deeper than 1000, a <cabinet> outside a
 *    <zone routing="Cluster"> (SimGrid makes no host of it), a second zone
 *    or cluster directly in <platform> (SimGrid fails on its hosts), a
 *    route without src or dst (a zone route without gw_src or gw_dst: the
 *    DTD requires them), a route other than a bypass one in a None zone;
 *  - a <zoneRoute> of a Full, Floyd or Dijkstra zone whose gw_src does not
 *    lie in its src zone (or below), or gw_dst in its dst zone: SimGrid
 *    refuses the file as it loads it (RoutedZone's "Invalid NetzoneRoute").
 *    Not for bypass routes, which SimGrid does not check.
 * Attributes left out are SimGrid's to judge (its own load, in a child
 * process, still follows: sim/engine/sg_engine.c).
 *
 * Routes (cs_xml_platform_check_routes) are checked between the hosts a run
 * uses: the first `used` hosts in natural order of their names, which is
 * how the engine places ranks (rank r on host r / cores); xml_file.c's
 * resolve passes the count for the run's n, all hosts when n is 0.  Each
 * ordered pair needs what SimGrid needs to send a message: a route with at
 * least one link.  SimGrid looks in the two hosts' lowest common zone for
 * a route between the two children that hold them:
 *  - Full (and None, which takes no routes): a <route>/<zoneRoute> from one to the other, or one
 *    the other way that is symmetrical (the default).  None between two
 *    zones: SimGrid aborts ("Bad gateways"); none between two hosts or
 *    routers: an empty route.  Through a child zone, the way from the host
 *    to the route's gateway is added the same way, recursively (an empty
 *    way is fine when the route itself has links; SimGrid accepts it);
 *  - Floyd, Dijkstra, DijkstraCache: a path in the graph of the zone's
 *    routes (symmetrical ones both ways), else SimGrid aborts; gateways are
 *    not followed;
 *  - clusters, Cluster* zones, Vivaldi, Wifi and any other routing: routed
 *    by construction.  A <bypassRoute> between the two hosts is the route.
 * A pair whose route is missing or has no link is refused, naming the zone
 * that lacks it.  A file with <include> is not route-checked (the included
 * file is not read).  Clusters cost time linear in their hosts; a Full zone
 * costs the square of its children (as its routes do), a graph zone its
 * size.  tests/unit/xml_validate.c holds platforms on both sides of each
 * rule; those of Full, Floyd, Dijkstra, nested zones and clusters were
 * checked against SimGrid 3.32 by sending a message between every two
 * hosts.
 */
#include "platforms/xml_validate.h"
#include "platforms/xml_model.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/natural_order.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HOSTS ((int64_t)1 << 22)
#define MAX_ZONE_DEPTH 1000
#define MAX_HOPS 64 /* gateway recursion: deeper is taken as routed */
#define SHOWN_CHARS 40 /* longest id or value quoted in a message */

/* ---- messages ---- */

/* A name or value fit for a one-line message: escaped, cut when long. */
static char *shown(const char *s)
{
  char *cut = NULL;
  if (g_utf8_validate(s, -1, NULL) && g_utf8_strlen(s, -1) > SHOWN_CHARS) {
    char *head = g_utf8_substring(s, 0, SHOWN_CHARS);
    cut = g_strconcat(head, "...", NULL);
    g_free(head);
  }
  char *esc = g_strescape(cut ? cut : s, NULL);
  g_free(cut);
  return esc;
}

static bool refuse_at(cs_xml_platform *x, GError **err, const char *element, const char *id, const char *fmt, ...)
    G_GNUC_PRINTF(5, 6);

/* "PATH: <element id="ID">: problem" (no id part when id is NULL). */
static bool refuse_at(cs_xml_platform *x, GError **err, const char *element, const char *id, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *problem = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *sid = id ? shown(id) : NULL;
  char *where = sid ? g_strdup_printf("<%s id=\"%s\">", element, sid) : g_strdup_printf("<%s>", element);
  g_set_error(err, CS_INPUT_ERROR, 1, "%s: %s: %s", x->path, where, problem);
  g_free(where);
  g_free(sid);
  g_free(problem);
  return false;
}

/* ---- values ---- */

typedef struct unit_row {
  const char *name;
  double factor;
} unit_row;

static const unit_row TIME_UNITS[] = {{"w", 604800}, {"d", 86400}, {"h", 3600}, {"m", 60},    {"s", 1},
                                      {"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};

static const char *const DECIMAL_SHORT[] = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
static const char *const DECIMAL_LONG[] = {"kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta"};
static const char *const BINARY_SHORT[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};

/* unit = PREFIX BASE with PREFIX one of prefixes (or none): *factor =
 * base_factor x mult^(rank of the prefix). */
static bool prefixed_unit(const char *unit, const char *base, double base_factor, const char *const *prefixes,
                          double mult, double *factor)
{
  size_t ul = strlen(unit), bl = strlen(base);
  if (ul < bl || strcmp(unit + ul - bl, base) != 0)
    return false;
  size_t pl = ul - bl;
  double f = base_factor;
  if (pl == 0) {
    *factor = f;
    return true;
  }
  for (int i = 0; i < 8; i++) {
    f *= mult;
    if (strlen(prefixes[i]) == pl && strncmp(unit, prefixes[i], pl) == 0) {
      *factor = f;
      return true;
    }
  }
  return false;
}

static bool unit_factor(const char *unit, cs_sg_quantity kind, double *factor)
{
  switch (kind) {
  case CS_SG_SPEED:
    return prefixed_unit(unit, "f", 1, DECIMAL_SHORT, 1000, factor) ||
           prefixed_unit(unit, "flops", 1, DECIMAL_LONG, 1000, factor);
  case CS_SG_BANDWIDTH:
    return prefixed_unit(unit, "Bps", 1, DECIMAL_SHORT, 1000, factor) ||
           prefixed_unit(unit, "Bps", 1, BINARY_SHORT, 1024, factor) ||
           prefixed_unit(unit, "bps", 0.125, DECIMAL_SHORT, 1000, factor) ||
           prefixed_unit(unit, "bps", 0.125, BINARY_SHORT, 1024, factor);
  case CS_SG_TIME:
    for (size_t i = 0; i < G_N_ELEMENTS(TIME_UNITS); i++)
      if (strcmp(unit, TIME_UNITS[i].name) == 0) {
        *factor = TIME_UNITS[i].factor;
        return true;
      }
    return false;
  }
  return false;
}

bool cs_sg_parse_value(const char *text, cs_sg_quantity kind, double *out, const char **why)
{
  char *copy = g_strstrip(g_strdup(text)); /* XML attribute values: SimGrid's parser trims them */
  char *end = NULL;
  errno = 0;
  double v = g_ascii_strtod(copy, &end);
  bool ok = false;
  double factor = 1;
  if (errno == ERANGE)
    *why = "out of range";
  else if (end == copy)
    *why = "not a number";
  else if (*end && !unit_factor(end, kind, &factor))
    *why = "unknown unit";
  else
    ok = true;
  g_free(copy);
  if (ok)
    *out = v * factor;
  return ok;
}

/* The value of attribute `attr` (NULL: absent, nothing to check). */
static const char *attr(const gchar **names, const gchar **values, const char *name)
{
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], name) == 0)
      return values[i];
  return NULL;
}

typedef enum { POSITIVE, NOT_NEGATIVE } value_range;

/* One value of attribute `name` (text: the whole attribute, for the message). */
static bool check_one(cs_xml_platform *x, GError **err, const char *el, const char *id, const char *name,
                      const char *item, const char *text, cs_sg_quantity kind, value_range range)
{
  const char *why = NULL;
  double v = 0;
  char *st = shown(text);
  bool ok = false;
  if (!cs_sg_parse_value(item, kind, &v, &why)) {
    char *end = NULL;
    g_ascii_strtod(item, &end);
    char *unit = g_strstrip(g_strdup(end ? end : ""));
    char *su = shown(unit);
    if (strcmp(why, "unknown unit") == 0)
      refuse_at(x, err, el, id, "%s=\"%s\": unknown unit '%s' (SimGrid's units: %s)", name, st, su,
                kind == CS_SG_SPEED       ? "f, kf .. Yf, flops, kiloflops .. yottaflops"
                : kind == CS_SG_BANDWIDTH ? "Bps or bps with k, M, G .. Y or Ki, Mi, Gi .. Yi"
                                          : "w, d, h, m, s, ms, us, ns, ps");
    else
      refuse_at(x, err, el, id, "%s=\"%s\": %s", name, st, why);
    g_free(su);
    g_free(unit);
  } else if (!isfinite(v)) {
    refuse_at(x, err, el, id, "%s=\"%s\" is not a finite number", name, st);
  } else if (range == POSITIVE && !(v > 0)) {
    refuse_at(x, err, el, id, "%s=\"%s\" must be positive", name, st);
  } else if (range == NOT_NEGATIVE && v < 0) {
    refuse_at(x, err, el, id, "%s=\"%s\" is negative", name, st);
  } else {
    ok = true;
  }
  g_free(st);
  return ok;
}

/* Attribute `name` of the element, if present: one value, or a
 * comma-separated list when `list` (pstates, WIFI rates). */
static bool check_value(cs_xml_platform *x, GError **err, const char *el, const gchar **names, const gchar **values,
                        const char *name, cs_sg_quantity kind, value_range range, bool list)
{
  const char *text = attr(names, values, name);
  const char *id = attr(names, values, "id");
  if (!text)
    return true;
  if (!list && strchr(text, ',')) {
    char *st = shown(text);
    refuse_at(x, err, el, id, "%s=\"%s\": one value expected", name, st);
    g_free(st);
    return false;
  }
  if (!*text) /* SimGrid cannot parse a number out of "" (xbt_parse_units) */
    return check_one(x, err, el, id, name, text, text, kind, range);
  char **items = g_strsplit(text, ",", -1);
  bool ok = true;
  for (char **i = items; ok && *i; i++)
    ok = check_one(x, err, el, id, name, *i, text, kind, range);
  g_strfreev(items);
  return ok;
}

/* A core count: SimGrid reads a leading whole number (std::stoi). */
static bool check_cores(cs_xml_platform *x, GError **err, const char *el, const gchar **names, const gchar **values)
{
  const char *text = attr(names, values, "core");
  if (!text)
    return true;
  const char *s = text;
  while (g_ascii_isspace(*s))
    s++;
  char *end = NULL;
  errno = 0;
  long long c = strtoll(s, &end, 10);
  if (end == s || errno == ERANGE || c < 1 || c > INT_MAX) {
    char *st = shown(text);
    refuse_at(x, err, el, attr(names, values, "id"), "core=\"%s\" must be a whole number >= 1", st);
    g_free(st);
    return false;
  }
  return true;
}

/* ---- the model ---- */

/* A copy of s (NULL stays NULL) that lives as long as the platform. */
static const char *keep(cs_xml_platform *x, const char *s)
{
  return s ? g_string_chunk_insert_const(x->strings, s) : NULL;
}

static netpoint *NP(cs_xml_platform *x, int id) { return xml_np(x, id); }

static int add_netpoint(cs_xml_platform *x, const char *name, np_kind kind, int own_zone)
{
  int local = x->cur_zone >= 0 ? (int)g_array_index(x->zones, zone, x->cur_zone).children->len : 0;
  netpoint p = {g_strdup(name), kind, x->cur_zone, own_zone, local};
  g_array_append_val(x->np, p);
  int id = (int)x->np->len - 1;
  if (x->cur_zone >= 0)
    g_array_append_val(g_array_index(x->zones, zone, x->cur_zone).children, id);
  return id;
}

static bool add_point(cs_xml_platform *x, GError **err, const char *el, const char *name, np_kind kind)
{
  if (g_hash_table_contains(x->points, name))
    return refuse_at(x, err, el, name, "a second host or router of this name");
  if (kind == NP_HOST && x->hosts->len >= MAX_HOSTS)
    return refuse_at(x, err, el, name, "more than %lld hosts", (long long)MAX_HOSTS);
  int id = add_netpoint(x, name, kind, -1);
  g_hash_table_insert(x->points, NP(x, id)->name, GINT_TO_POINTER(id + 1));
  if (kind == NP_HOST)
    g_array_append_val(x->hosts, id);
  return true;
}

static zone_routing routing_of(const char *routing)
{
  if (!routing)
    return ROUTED_BUILT;
  if (strcmp(routing, "Full") == 0 || strcmp(routing, "None") == 0)
    return ROUTED_FULL;
  if (strcmp(routing, "Floyd") == 0 || strcmp(routing, "Dijkstra") == 0 || strcmp(routing, "DijkstraCache") == 0)
    return ROUTED_GRAPH;
  return ROUTED_BUILT;
}

/* A new zone inside the current one (which it becomes when `enter`). */
static bool add_zone(cs_xml_platform *x, GError **err, const char *el, const char *id, const char *routing)
{
  int depth = x->cur_zone >= 0 ? g_array_index(x->zones, zone, x->cur_zone).depth + 1 : 0;
  if (depth > MAX_ZONE_DEPTH)
    return refuse_at(x, err, el, id, "zones nested more than %d deep", MAX_ZONE_DEPTH);
  if (x->cur_zone == 0 && g_array_index(x->zones, zone, 0).children->len > 0)
    return refuse_at(x, err, el, id, "a second zone directly in <platform> (SimGrid 3.32 takes one: it fails to "
                     "create the hosts of the next); put both in one <zone>");
  zone z = {.np = -1, .parent = x->cur_zone, .depth = depth, .routing = routing_of(routing),
            .routing_name = keep(x, routing ? routing : "Cluster"), .element = keep(x, el),
            .children = g_array_new(FALSE, FALSE, sizeof(int)), .routes = g_array_new(FALSE, FALSE, sizeof(route_decl)),
            .cluster = -1, .rep = -1};
  g_array_append_val(x->zones, z);
  int zi = (int)x->zones->len - 1;
  if (x->cur_zone >= 0) {
    int np = add_netpoint(x, id ? id : "", NP_ZONE, zi);
    g_array_index(x->zones, zone, zi).np = np;
    if (id && !g_hash_table_contains(x->zone_ids, id))
      g_hash_table_insert(x->zone_ids, g_strdup(id), GINT_TO_POINTER(np + 1));
  }
  return true;
}

/* Hosts PREFIX<n>SUFFIX for the n of a radical "0-7,9,12-13", the first
 * `most` of them (a topology's room: SimGrid ignores the others); add
 * false: only checks the radical. */
static bool radical_hosts(cs_xml_platform *x, GError **err, const char *el, const char *id, const char *prefix,
                          const char *suffix, const char *radical, int64_t most, bool add)
{
  char **parts = g_strsplit(radical, ",", -1);
  bool ok = true;
  int64_t added = 0;
  for (char **r = parts; ok && *r && added < most; r++) {
    char *end = NULL, *end2 = NULL;
    errno = 0;
    long long a = g_ascii_isdigit(**r) ? strtoll(*r, &end, 10) : -1, b = a;
    if (a >= 0 && *end == '-')
      b = g_ascii_isdigit(end[1]) ? strtoll(end + 1, &end2, 10) : -1;
    if (a < 0 || b < a || errno == ERANGE || *(end2 ? end2 : end) != '\0') {
      char *s = shown(radical);
      ok = refuse_at(x, err, el, id, "radical=\"%s\": expected numbers and ranges A-B separated by commas", s);
      g_free(s);
    } else if (b - a >= MAX_HOSTS - (int64_t)x->hosts->len) {
      ok = refuse_at(x, err, el, id, "more than %lld hosts", (long long)MAX_HOSTS);
    }
    for (long long n = a; ok && add && n <= b && added < most; n++, added++) {
      char *name = g_strdup_printf("%s%lld%s", prefix, n, suffix);
      ok = add_point(x, err, el, name, NP_HOST);
      g_free(name);
    }
  }
  g_strfreev(parts);
  return ok;
}

/* ---- the elements ---- */

#define VALUE(name, kind, range, list) check_value(x, err, el, names, values, name, kind, range, list)

static bool on_host(cs_xml_platform *x, GError **err, const char *el, const gchar **names, const gchar **values)
{
  const char *id = attr(names, values, "id");
  return VALUE("speed", CS_SG_SPEED, POSITIVE, true) && check_cores(x, err, el, names, values) &&
         (!id || add_point(x, err, el, id, NP_HOST));
}

static bool on_peer(cs_xml_platform *x, GError **err, const char *el, const gchar **names, const gchar **values)
{
  const zone *z = &g_array_index(x->zones, zone, x->cur_zone);
  if (strcmp(z->routing_name, "Vivaldi") != 0)
    return refuse_at(x, err, el, attr(names, values, "id"), "<peer> is allowed only in a <zone routing=\"Vivaldi\"> "
                     "(SimGrid 3.32 aborts on it in a %s zone)", z->routing_name);
  return VALUE("bw_in", CS_SG_BANDWIDTH, POSITIVE, false) && VALUE("bw_out", CS_SG_BANDWIDTH, POSITIVE, false) &&
         VALUE("lat", CS_SG_TIME, NOT_NEGATIVE, false) && on_host(x, err, el, names, values);
}

/* A value already checked (NAN when absent; the first of a list). */
static double checked_value(const char *text, cs_sg_quantity kind, double absent)
{
  if (!text)
    return absent;
  char **items = g_strsplit(text, ",", 2); /* "" splits into no item at all */
  double v = NAN;
  const char *why = NULL;
  if (!items[0] || !cs_sg_parse_value(items[0], kind, &v, &why))
    v = NAN;
  g_strfreev(items);
  return v;
}

/* Keeps the link (two halves "<id>_UP", "<id>_DOWN" when SPLITDUPLEX). */
static void keep_link(cs_xml_platform *x, const char *id, const char *policy, double bw, double lat)
{
  bool split = policy && (strcmp(policy, "SPLITDUPLEX") == 0 || strcmp(policy, "FULLDUPLEX") == 0);
  x->open_link = (int)x->links->len;
  x->open_link_ids = split ? 2 : 1;
  for (int half = 0; half < x->open_link_ids; half++) {
    char *name = split ? g_strconcat(id, half ? "_DOWN" : "_UP", NULL) : g_strdup(id);
    xml_link l = {keep(x, name), bw, lat, NULL, keep(x, policy), x->cur_zone};
    g_array_append_val(x->links, l);
    if (!g_hash_table_contains(x->link_ids, l.name))
      g_hash_table_insert(x->link_ids, (gpointer)l.name, GINT_TO_POINTER(x->links->len));
    g_free(name);
  }
  if (split && !g_hash_table_contains(x->split_ids, id))
    g_hash_table_insert(x->split_ids, (gpointer)keep(x, id), GINT_TO_POINTER(x->open_link + 1));
}

static bool on_link(cs_xml_platform *x, GError **err, const char *el, const gchar **names, const gchar **values)
{
  const char *policy = attr(names, values, "sharing_policy");
  if (!(VALUE("bandwidth", CS_SG_BANDWIDTH, POSITIVE, policy && strcmp(policy, "WIFI") == 0) &&
        VALUE("latency", CS_SG_TIME, NOT_NEGATIVE, false)))
    return false;
  const char *id = attr(names, values, "id");
  if (id)
    keep_link(x, id, policy, checked_value(attr(names, values, "bandwidth"), CS_SG_BANDWIDTH, NAN),
              checked_value(attr(names, values, "latency"), CS_SG_TIME, 0));
  return true;
}

/* <prop id="tier" value=".."/> of the link being read. */
static void on_prop(cs_xml_platform *x, const gchar **names, const gchar **values)
{
  const char *id = attr(names, values, "id"), *value = attr(names, values, "value");
  if (x->open_link < 0 || !id || !value || strcmp(id, "tier") != 0)
    return;
  for (int i = 0; i < x->open_link_ids; i++)
    g_array_index(x->links, xml_link, x->open_link + i).tier = keep(x, value);
}

/* The number list of a radical already checked: "0-3,7" -> 0 1 2 3 7. */
static GArray *radical_numbers(const char *radical)
{
  GArray *out = g_array_new(FALSE, FALSE, sizeof(int64_t));
  char **parts = g_strsplit(radical ? radical : "", ",", -1);
  for (char **r = parts; *r && **r; r++) {
    char *end = NULL;
    int64_t a = strtoll(*r, &end, 10), b = *end == '-' ? strtoll(end + 1, NULL, 10) : a;
    for (int64_t n = a; n <= b; n++)
      g_array_append_val(out, n);
  }
  g_strfreev(parts);
  return out;
}

/* Keeps a <cluster>'s attributes for xml_routes.c. */
static void keep_cluster(cs_xml_platform *x, int zi, const gchar **names, const gchar **values)
{
#define A(name) keep(x, attr(names, values, name))
  xml_cluster c = {zi,         A("id"),          A("prefix"),       A("suffix"),       A("topology"),
                   A("topo_parameters"), A("sharing_policy"), A("bb_sharing_policy"), A("router_id"),
                   A("bw"),    A("lat"),         A("bb_bw"),        A("bb_lat"),       A("loopback_bw"),
                   A("loopback_lat"), A("limiter_link"), radical_numbers(attr(names, values, "radical"))};
#undef A
  g_array_append_val(x->clusters, c);
  xml_zone(x, zi)->cluster = (int)x->clusters->len - 1;
}

/* <cluster> and <cabinet>: hosts PREFIX<n>SUFFIX; a cluster is a zone of
 * its own, with a router. */
static bool on_cluster(cs_xml_platform *x, GError **err, const char *el, const gchar **names, const gchar **values)
{
  const char *id = attr(names, values, "id");
  const char *prefix = attr(names, values, "prefix"), *suffix = attr(names, values, "suffix");
  const char *radical = attr(names, values, "radical");
  bool cluster = strcmp(el, "cluster") == 0;
  const zone *in = &g_array_index(x->zones, zone, x->cur_zone);
  if (!cluster && (x->cur_zone == 0 || strcmp(in->routing_name, "Cluster") != 0))
    return refuse_at(x, err, el, id, "<cabinet> is allowed only in a <zone routing=\"Cluster\"> (SimGrid 3.32 makes "
                     "no host of it %s)", x->cur_zone == 0 ? "directly in <platform>" : "in another zone");
  if (!(VALUE("speed", CS_SG_SPEED, POSITIVE, true) && check_cores(x, err, el, names, values) &&
        VALUE("bw", CS_SG_BANDWIDTH, POSITIVE, false) && VALUE("lat", CS_SG_TIME, NOT_NEGATIVE, false) &&
        VALUE("bb_bw", CS_SG_BANDWIDTH, POSITIVE, false) && VALUE("bb_lat", CS_SG_TIME, NOT_NEGATIVE, false) &&
        VALUE("loopback_bw", CS_SG_BANDWIDTH, POSITIVE, false) &&
        VALUE("loopback_lat", CS_SG_TIME, NOT_NEGATIVE, false) &&
        VALUE("limiter_link", CS_SG_BANDWIDTH, POSITIVE, false)))
    return false;
  prefix = prefix ? prefix : "";
  suffix = suffix ? suffix : "";
  if (radical && !radical_hosts(x, err, el, id, prefix, suffix, radical, INT64_MAX, false))
    return false;
  int outer = x->cur_zone;
  if (cluster && !add_zone(x, err, el, id, NULL))
    return false;
  int64_t most = INT64_MAX;
  if (cluster) {
    x->cur_zone = (int)x->zones->len - 1;
    keep_cluster(x, x->cur_zone, names, values);
    most = cs_xml_cluster_hosts(x, &g_array_index(x->clusters, xml_cluster, x->clusters->len - 1));
  }
  bool ok = !radical || radical_hosts(x, err, el, id, prefix, suffix, radical, most, true);
  if (ok && cluster) {
    const char *router = attr(names, values, "router_id");
    char *name = router ? g_strdup(router)
                        : g_strdup_printf("%s%s_router%s", prefix, id ? id : "", suffix);
    if (!g_hash_table_contains(x->points, name))
      add_point(x, err, el, name, NP_ROUTER);
    g_free(name);
  }
  x->cur_zone = outer;
  return ok;
}

static const char *const ROUTE_ELEMENTS[] = {"route",       "zoneRoute",       "ASroute",
                                             "bypassRoute", "bypassZoneRoute", "bypassASroute"};

static bool is_route(const char *el)
{
  for (size_t i = 0; i < G_N_ELEMENTS(ROUTE_ELEMENTS); i++)
    if (strcmp(el, ROUTE_ELEMENTS[i]) == 0)
      return true;
  return false;
}

/* What SimGrid 3.32 refuses of a route as it reads it: an attribute its
 * DTD requires (src and dst; a zone route's gateways too), a route other
 * than a bypass one in a None zone ("does not accept new routes"). */
static bool route_accepted(cs_xml_platform *x, GError **err, const char *el, bool zone_route, const gchar **names,
                           const gchar **values)
{
  static const char *const required[] = {"src", "dst", "gw_src", "gw_dst"};
  for (size_t i = 0; i < (zone_route ? 4 : 2); i++)
    if (!attr(names, values, required[i]))
      return refuse_at(x, err, el, NULL, "%s=\"...\" is missing (SimGrid's DTD requires it)", required[i]);
  const zone *z = &g_array_index(x->zones, zone, x->cur_zone);
  if (!g_str_has_prefix(el, "bypass") && x->cur_zone > 0 && strcmp(z->routing_name, "None") == 0)
    return refuse_at(x, err, el, NULL, "a <zone routing=\"None\"> takes no route but bypass routes (SimGrid 3.32 "
                     "aborts: it does not accept new routes)");
  return true;
}

static bool on_route(cs_xml_platform *x, GError **err, const char *el, const gchar **names, const gchar **values)
{
  bool zone_route = strstr(el, "oneRoute") || strstr(el, "ASroute");
  if (!route_accepted(x, err, el, zone_route, names, values))
    return false;
  const char *sym = attr(names, values, "symmetrical");
  route_decl r = {keep(x, attr(names, values, "src")),    keep(x, attr(names, values, "dst")),
                  keep(x, attr(names, values, "gw_src")), keep(x, attr(names, values, "gw_dst")),
                  zone_route, !sym || g_ascii_strcasecmp(sym, "NO") != 0, g_str_has_prefix(el, "bypass"), 0,
                  (int)x->hops->len};
  if (x->cur_zone >= 0) {
    x->open_route = g_array_index(x->zones, zone, x->cur_zone).routes;
    g_array_append_val(x->open_route, r);
  }
  return true;
}

/* A <link_ctn> of the route being read: the link each way, as SimGrid
 * finds it (direction UP or DOWN: a half of a split-duplex link, the other
 * half on the way back; none: the link of that name). */
static void on_link_ctn(cs_xml_platform *x, const gchar **names, const gchar **values)
{
  const char *id = attr(names, values, "id"), *dir = attr(names, values, "direction");
  route_hop h = {-1, -1, keep(x, id ? id : ""), keep(x, dir)};
  bool up = dir && strcmp(dir, "UP") == 0, down = dir && strcmp(dir, "DOWN") == 0;
  if (id && (up || down)) {
    int first = GPOINTER_TO_INT(g_hash_table_lookup(x->split_ids, id)) - 1;
    if (first >= 0) {
      h.fwd = first + (down ? 1 : 0);
      h.back = first + (down ? 0 : 1);
    }
  } else if (id && (!dir || strcmp(dir, "NONE") == 0)) {
    h.fwd = h.back = GPOINTER_TO_INT(g_hash_table_lookup(x->link_ids, id)) - 1;
  }
  g_array_append_val(x->hops, h);
  g_array_index(x->open_route, route_decl, x->open_route->len - 1).links++;
}

static bool on_element(cs_xml_platform *x, GError **err, const char *el, const gchar **names, const gchar **values)
{
  if (strcmp(el, "zone") == 0 || strcmp(el, "AS") == 0) {
    if (!add_zone(x, err, el, attr(names, values, "id"), attr(names, values, "routing")))
      return false;
    x->cur_zone = (int)x->zones->len - 1;
    return true;
  }
  if (strcmp(el, "host") == 0)
    return on_host(x, err, el, names, values);
  if (strcmp(el, "peer") == 0)
    return on_peer(x, err, el, names, values);
  if (strcmp(el, "router") == 0) {
    const char *id = attr(names, values, "id");
    return !id || add_point(x, err, el, id, NP_ROUTER);
  }
  if (strcmp(el, "link") == 0)
    return on_link(x, err, el, names, values);
  if (strcmp(el, "backbone") == 0)
    return VALUE("bandwidth", CS_SG_BANDWIDTH, POSITIVE, false) && VALUE("latency", CS_SG_TIME, NOT_NEGATIVE, false);
  if (strcmp(el, "disk") == 0)
    return VALUE("read_bw", CS_SG_BANDWIDTH, POSITIVE, false) && VALUE("write_bw", CS_SG_BANDWIDTH, POSITIVE, false);
  if (strcmp(el, "cluster") == 0 || strcmp(el, "cabinet") == 0)
    return on_cluster(x, err, el, names, values);
  if (is_route(el))
    return on_route(x, err, el, names, values);
  if (strcmp(el, "link_ctn") == 0 && x->open_route)
    on_link_ctn(x, names, values);
  else if (strcmp(el, "prop") == 0)
    on_prop(x, names, values);
  else if (strcmp(el, "include") == 0)
    x->has_include = true;
  return true;
}

/* ---- reading ---- */

/* What SimGrid 3.32's DTD does not allow directly in <platform> (there:
 * config, random, include, cluster, cabinet, peer, zone, AS, trace,
 * trace_connect, actor): a file with them is refused at its parse. */
static bool at_top_refused(const char *el)
{
  static const char *const inside_zones[] = {"host", "link", "router", "backbone", "link_ctn", NULL};
  for (int i = 0; inside_zones[i]; i++)
    if (strcmp(el, inside_zones[i]) == 0)
      return true;
  return is_route(el);
}

static void parse_start(GMarkupParseContext *ctx, const gchar *el, const gchar **names, const gchar **values,
                        gpointer user, GError **err)
{
  cs_xml_platform *x = user;
  if (x->depth++ == 0) {
    if (strcmp(el, "platform") != 0) {
      int line = 0, col = 0;
      g_markup_parse_context_get_position(ctx, &line, &col);
      refuse_at(x, err, el, NULL, "line %d: the root element must be <platform>", line);
      return;
    }
    x->root_ok = true;
    return;
  }
  if (x->depth == 2 && at_top_refused(el)) {
    int line = 0, col = 0;
    g_markup_parse_context_get_position(ctx, &line, &col);
    refuse_at(x, err, el, attr(names, values, "id"), "line %d: <%s> must be inside a <zone> (SimGrid 3.32 refuses "
              "it directly in <platform>)", line, el);
    return;
  }
  on_element(x, err, el, names, values);
}

static void parse_end(GMarkupParseContext *ctx, const gchar *el, gpointer user, GError **err)
{
  (void)ctx;
  (void)err;
  cs_xml_platform *x = user;
  x->depth--;
  if (is_route(el))
    x->open_route = NULL;
  if (strcmp(el, "link") == 0)
    x->open_link = -1;
  if ((strcmp(el, "zone") == 0 || strcmp(el, "AS") == 0) && x->cur_zone > 0)
    x->cur_zone = g_array_index(x->zones, zone, x->cur_zone).parent;
}

static int host_order(gconstpointer a, gconstpointer b, gpointer user)
{
  const cs_xml_platform *x = user;
  return cs_natural_cmp(g_array_index(x->np, netpoint, *(const int *)a).name,
                            g_array_index(x->np, netpoint, *(const int *)b).name);
}

static bool hosts_sorted(cs_xml_platform *x)
{
  for (guint i = 1; i < x->hosts->len; i++)
    if (host_order(&g_array_index(x->hosts, int, i - 1), &g_array_index(x->hosts, int, i), x) > 0)
      return false;
  return true;
}

static cs_xml_platform *platform_new(const char *path)
{
  cs_xml_platform *x = g_new0(cs_xml_platform, 1);
  x->path = g_strescape(path, NULL); /* whole, on one line */
  x->np = g_array_new(FALSE, FALSE, sizeof(netpoint));
  x->zones = g_array_new(FALSE, FALSE, sizeof(zone));
  x->points = g_hash_table_new(g_str_hash, g_str_equal); /* keys: the netpoints' names */
  x->zone_ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  x->hosts = g_array_new(FALSE, FALSE, sizeof(int));
  x->strings = g_string_chunk_new(1024);
  x->links = g_array_new(FALSE, FALSE, sizeof(xml_link));
  x->link_ids = g_hash_table_new(g_str_hash, g_str_equal); /* keys: in x->strings */
  x->split_ids = g_hash_table_new(g_str_hash, g_str_equal);
  x->hops = g_array_new(FALSE, FALSE, sizeof(route_hop));
  x->clusters = g_array_new(FALSE, FALSE, sizeof(xml_cluster));
  x->open_link = -1;
  x->cur_zone = -1;
  GError *never = NULL;
  add_zone(x, &never, "platform", NULL, NULL); /* the root: routes whatever is at the top */
  x->cur_zone = 0;
  return x;
}

/* XML forbids the character NUL; GMarkup would keep it inside a value,
 * which C strings then cut short. */
static bool has_nul(const char *path, const char *text, size_t len, GError **err)
{
  const char *nul = memchr(text, '\0', len);
  if (!nul)
    return false;
  int line = 1;
  for (const char *c = text; c < nul; c++)
    line += *c == '\n';
  g_set_error(err, CS_INPUT_ERROR, 1, "%s: malformed XML: a NUL byte on line %d", path, line);
  return true;
}

static bool gateways_in_their_zones(cs_xml_platform *x, GError **err);

cs_xml_platform *cs_xml_platform_read(const char *path, const char *text, size_t len, GError **err)
{
  if (has_nul(path, text, len, err))
    return NULL;
  cs_xml_platform *x = platform_new(path);
  GMarkupParser parser = {parse_start, parse_end, NULL, NULL, NULL};
  GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, G_MARKUP_IGNORE_QUALIFIED, x, NULL);
  GError *e = NULL;
  bool ok = g_markup_parse_context_parse(ctx, text, (gssize)len, &e) && g_markup_parse_context_end_parse(ctx, &e);
  g_markup_parse_context_free(ctx);
  if (!ok && e->domain == CS_INPUT_ERROR) {
    g_propagate_error(err, e);
  } else if (!ok) {
    char *m = g_strescape(e->message, NULL);
    g_set_error(err, CS_INPUT_ERROR, 1, "%s: malformed XML: %s", x->path, m);
    g_free(m);
    g_error_free(e);
  } else if (!x->root_ok || x->hosts->len == 0) {
    ok = false;
    g_set_error(err, CS_INPUT_ERROR, 1, "%s: <platform>: declares no host", x->path);
  }
  if (!ok) {
    cs_xml_platform_free(x);
    return NULL;
  }
  if (!x->has_include && !gateways_in_their_zones(x, err)) {
    cs_xml_platform_free(x);
    return NULL;
  }
  if (!hosts_sorted(x)) /* often are already: clusters in order of their radicals */
    g_array_sort_with_data(x->hosts, host_order, x);
  return x;
}

void cs_xml_platform_free(cs_xml_platform *x)
{
  if (!x)
    return;
  for (guint i = 0; i < x->np->len; i++)
    g_free(g_array_index(x->np, netpoint, i).name);
  for (guint i = 0; i < x->zones->len; i++) {
    zone *z = &g_array_index(x->zones, zone, i);
    g_array_free(z->children, TRUE);
    g_array_free(z->routes, TRUE);
    if (z->table)
      g_hash_table_destroy(z->table);
    if (z->graph)
      g_hash_table_destroy(z->graph);
  }
  g_array_free(x->np, TRUE);
  g_array_free(x->zones, TRUE);
  g_hash_table_destroy(x->points);
  g_hash_table_destroy(x->zone_ids);
  g_array_free(x->hosts, TRUE);
  for (guint i = 0; i < x->clusters->len; i++)
    g_array_free(g_array_index(x->clusters, xml_cluster, i).radical, TRUE);
  g_array_free(x->clusters, TRUE);
  g_array_free(x->links, TRUE);
  g_array_free(x->hops, TRUE);
  g_hash_table_destroy(x->link_ids);
  g_hash_table_destroy(x->split_ids);
  g_free(x->hier_table);
  g_string_chunk_free(x->strings);
  if (x->memo)
    g_hash_table_destroy(x->memo);
  if (x->reason)
    g_hash_table_destroy(x->reason);
  g_free(x->path);
  g_free(x);
}

size_t cs_xml_platform_host_count(const cs_xml_platform *x) { return x->hosts->len; }

const char *cs_xml_platform_host(const cs_xml_platform *x, size_t i)
{
  return g_array_index(x->np, netpoint, g_array_index(x->hosts, int, i)).name;
}

/* ---- routes ---- */

static zone *ZONE(cs_xml_platform *x, int id) { return xml_zone(x, id); }

static gint64 pair_key(int a, int b) { return ((gint64)a << 32) | (guint32)b; }

static gint64 *key_dup(gint64 key)
{
  gint64 *k = g_new(gint64, 1);
  *k = key;
  return k;
}

/* The netpoint a route names (a zone's for zone routes), or -1. */
static int lookup(cs_xml_platform *x, const char *name, bool zone_first)
{
  if (!name)
    return -1;
  GHashTable *first = zone_first ? x->zone_ids : x->points, *second = zone_first ? x->points : x->zone_ids;
  gpointer v = g_hash_table_lookup(first, name);
  if (!v)
    v = g_hash_table_lookup(second, name);
  return GPOINTER_TO_INT(v) - 1;
}

/* One gateway of a zone route: in its zone or below, as SimGrid 3.32
 * checks as it loads the file (RoutedZone: "Invalid NetzoneRoute"; not
 * for bypass routes).  Names that are not a zone and a host or router are
 * left to the route check. */
static bool gateway_in_zone(cs_xml_platform *x, const route_decl *r, const char *side, const char *zname,
                            const char *gw, GError **err)
{
  int z = zname ? GPOINTER_TO_INT(g_hash_table_lookup(x->zone_ids, zname)) - 1 : -1;
  int g = gw ? GPOINTER_TO_INT(g_hash_table_lookup(x->points, gw)) - 1 : -1;
  if (z < 0 || g < 0 || xml_np_within(x, g, NP(x, z)->zone))
    return true;
  int in = NP(x, g)->parent;
  char *sn = shown(r->src), *dn = shown(r->dst), *gn = shown(gw), *zn = shown(zname);
  char *inn = shown(ZONE(x, in)->np >= 0 ? NP(x, ZONE(x, in)->np)->name : "");
  refuse_at(x, err, "zoneRoute", NULL, "from \"%s\" to \"%s\": %s=\"%s\" lies in zone \"%s\", not in \"%s\" "
            "(SimGrid refuses it)", sn, dn, side, gn, inn, zn);
  g_free(sn);
  g_free(dn);
  g_free(gn);
  g_free(zn);
  g_free(inn);
  return false;
}

static bool gateways_in_their_zones(cs_xml_platform *x, GError **err)
{
  for (guint zi = 0; zi < x->zones->len; zi++) {
    const zone *z = ZONE(x, (int)zi);
    for (guint i = 0; z->routing != ROUTED_BUILT && i < z->routes->len; i++) {
      const route_decl *r = &g_array_index(z->routes, route_decl, i);
      if (r->zone_route && !r->bypass &&
          (!gateway_in_zone(x, r, "gw_src", r->src, r->gw_src, err) ||
           !gateway_in_zone(x, r, "gw_dst", r->dst, r->gw_dst, err)))
        return false;
    }
  }
  return true;
}

/* A route as found from src to dst: its gateways (-1: none). */
typedef struct found_route {
  bool exists, bypass, links;
  int gw_src, gw_dst;
} found_route;

static void put_route(GHashTable *t, int a, int b, const route_decl *r)
{
  gint64 *k = g_new(gint64, 1);
  *k = pair_key(a, b);
  if (!g_hash_table_contains(t, k))
    g_hash_table_insert(t, k, (gpointer)r);
  else
    g_free(k);
}

/* Full zones: (src, dst) -> route, the declared direction first. */
static GHashTable *route_table(cs_xml_platform *x, zone *z)
{
  if (z->table)
    return z->table;
  z->table = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < z->routes->len; i++) {
      const route_decl *r = &g_array_index(z->routes, route_decl, i);
      int s = lookup(x, r->src, r->zone_route), d = lookup(x, r->dst, r->zone_route);
      if (s >= 0 && d >= 0 && pass == 0)
        put_route(z->table, s, d, r);
      else if (s >= 0 && d >= 0 && r->symmetrical && !r->bypass)
        put_route(z->table, d, s, r);
    }
  return z->table;
}

static found_route full_route(cs_xml_platform *x, zone *z, int s, int d)
{
  gint64 k = pair_key(s, d);
  const route_decl *r = g_hash_table_lookup(route_table(x, z), &k);
  found_route f = {r != NULL, r && r->bypass, r && r->links > 0, -1, -1};
  if (r) {
    bool reversed = lookup(x, r->src, r->zone_route) != s;
    f.gw_src = lookup(x, reversed ? r->gw_dst : r->gw_src, false);
    f.gw_dst = lookup(x, reversed ? r->gw_src : r->gw_dst, false);
  }
  return f;
}

/* Floyd/Dijkstra zones: the graph of their routes. */
static GHashTable *route_graph(cs_xml_platform *x, zone *z)
{
  if (z->graph)
    return z->graph;
  z->graph = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)g_array_unref);
  for (guint i = 0; i < z->routes->len; i++) {
    const route_decl *r = &g_array_index(z->routes, route_decl, i);
    int ends[2] = {lookup(x, r->src, r->zone_route), lookup(x, r->dst, r->zone_route)};
    for (int dir = 0; dir < (r->symmetrical ? 2 : 1) && ends[0] >= 0 && ends[1] >= 0; dir++) {
      gpointer from = GINT_TO_POINTER(ends[dir] + 1);
      GArray *out = g_hash_table_lookup(z->graph, from);
      if (!out) {
        out = g_array_new(FALSE, FALSE, sizeof(int));
        g_hash_table_insert(z->graph, from, out);
      }
      g_array_append_val(out, ends[1 - dir]);
    }
  }
  return z->graph;
}

/* Netpoints reachable from `from` in the zone's graph (`backward`: that reach it). */
static GHashTable *graph_reach(cs_xml_platform *x, zone *z, int from, bool backward)
{
  GHashTable *g = route_graph(x, z), *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
  GHashTable *rev = NULL;
  if (backward) {
    rev = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)g_array_unref);
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, g);
    while (g_hash_table_iter_next(&it, &k, &v))
      for (guint i = 0; i < ((GArray *)v)->len; i++) {
        gpointer to = GINT_TO_POINTER(g_array_index((GArray *)v, int, i) + 1);
        GArray *in = g_hash_table_lookup(rev, to);
        if (!in) {
          in = g_array_new(FALSE, FALSE, sizeof(int));
          g_hash_table_insert(rev, to, in);
        }
        int src = GPOINTER_TO_INT(k) - 1;
        g_array_append_val(in, src);
      }
    g = rev;
  }
  GArray *todo = g_array_new(FALSE, FALSE, sizeof(int));
  g_array_append_val(todo, from);
  g_hash_table_add(seen, GINT_TO_POINTER(from + 1));
  while (todo->len > 0) {
    int at = g_array_index(todo, int, todo->len - 1);
    g_array_set_size(todo, todo->len - 1);
    GArray *next = g_hash_table_lookup(g, GINT_TO_POINTER(at + 1));
    for (guint i = 0; next && i < next->len; i++) {
      int n = g_array_index(next, int, i);
      if (g_hash_table_add(seen, GINT_TO_POINTER(n + 1)))
        g_array_append_val(todo, n);
    }
  }
  g_array_free(todo, TRUE);
  if (rev)
    g_hash_table_destroy(rev);
  return seen;
}

static bool graph_path(cs_xml_platform *x, zone *z, int s, int d)
{
  GHashTable *seen = graph_reach(x, z, s, false);
  bool ok = g_hash_table_contains(seen, GINT_TO_POINTER(d + 1));
  g_hash_table_destroy(seen);
  return ok;
}

/* What SimGrid finds from one netpoint to another: no route (it aborts:
 * "Bad gateways", "No route from"), a route without a link (it aborts when
 * a message takes it: "no connecting path"; harmless as a part of a
 * longer route), or a route with links. */
typedef enum { R_NONE, R_EMPTY, R_LINKS } found;

/* The zone's child on the way down to netpoint p (p itself if its own). */
static int child_toward(cs_xml_platform *x, int zi, int p)
{
  while (NP(x, p)->parent != zi)
    p = ZONE(x, NP(x, p)->parent)->np;
  return p;
}

static int common_zone(cs_xml_platform *x, int a, int b)
{
  int za = NP(x, a)->parent, zb = NP(x, b)->parent;
  while (ZONE(x, za)->depth > ZONE(x, zb)->depth)
    za = ZONE(x, za)->parent;
  while (ZONE(x, zb)->depth > ZONE(x, za)->depth)
    zb = ZONE(x, zb)->parent;
  while (za != zb) {
    za = ZONE(x, za)->parent;
    zb = ZONE(x, zb)->parent;
  }
  return za;
}

/* Why zone z has nothing from child s to child d (g_free it). */
static char *no_route(cs_xml_platform *x, zone *z, int s, int d, bool empty)
{
  char *zid = shown(z->np >= 0 ? NP(x, z->np)->name : "");
  char *rn = shown(z->routing_name), *sn = shown(NP(x, s)->name), *dn = shown(NP(x, d)->name);
  char *why = g_strdup_printf("<%s id=\"%s\" routing=\"%s\"> has %s from \"%s\" to \"%s\"", z->element, zid, rn,
                              empty                          ? "only a route without links"
                              : z->routing == ROUTED_GRAPH ? "no path of routes"
                                                           : "no route",
                              sn, dn);
  g_free(zid);
  g_free(rn);
  g_free(sn);
  g_free(dn);
  return why;
}

static found reach(cs_xml_platform *x, int a, int b, int hops);

/* A route joined with the part before or after it (reason: of the pair). */
static found join(cs_xml_platform *x, found so_far, int from, int to, int hops, gint64 key)
{
  if (so_far == R_NONE || from < 0 || to < 0)
    return so_far;
  found part = reach(x, from, to, hops + 1);
  if (part == R_NONE) {
    gint64 pk = pair_key(from, to);
    g_hash_table_replace(x->reason, key_dup(key),
                         g_strdup(g_hash_table_lookup(x->reason, &pk)));
    return R_NONE;
  }
  return part > so_far ? part : so_far;
}

/* In a Full zone: the route between the children, through their gateways. */
static found full_reach(cs_xml_platform *x, zone *z, int a, int b, int s, int d, int hops, gint64 key)
{
  found_route r = full_route(x, z, a, b);
  if (r.exists && r.bypass)
    return r.links ? R_LINKS : R_EMPTY;
  r = full_route(x, z, s, d);
  bool zones = NP(x, s)->kind == NP_ZONE || NP(x, d)->kind == NP_ZONE;
  found f = !r.exists ? (zones ? R_NONE : R_EMPTY) : r.links ? R_LINKS : R_EMPTY;
  if (f != R_LINKS)
    g_hash_table_replace(x->reason, key_dup(key), no_route(x, z, s, d, r.exists));
  if (r.exists && !r.bypass && NP(x, s)->kind == NP_ZONE)
    f = join(x, f, a, r.gw_src, hops, key);
  if (r.exists && !r.bypass && NP(x, d)->kind == NP_ZONE)
    f = join(x, f, r.gw_dst, b, hops, key);
  return f;
}

/* What SimGrid finds from netpoint a to netpoint b.  Memoized. */
static found reach(cs_xml_platform *x, int a, int b, int hops)
{
  if (a == b)
    return R_EMPTY;
  if (hops > MAX_HOPS)
    return R_LINKS;
  gint64 key = pair_key(a, b);
  gpointer known = g_hash_table_lookup(x->memo, &key);
  if (known)
    return (found)(GPOINTER_TO_INT(known) - 1);
  int zi = common_zone(x, a, b);
  zone *z = ZONE(x, zi);
  int s = child_toward(x, zi, a), d = child_toward(x, zi, b);
  found f = R_LINKS;
  if (z->routing == ROUTED_GRAPH && !graph_path(x, z, s, d)) {
    f = R_NONE;
    g_hash_table_replace(x->reason, key_dup(key), no_route(x, z, s, d, false));
  } else if (z->routing == ROUTED_FULL) {
    f = full_reach(x, z, a, b, s, d, hops, key);
  }
  g_hash_table_insert(x->memo, key_dup(key), GINT_TO_POINTER(f + 1));
  return f;
}

/* What the check of one run keeps: the hosts it uses and, for each child
 * zone of a Full zone, its hosts the run uses. */
typedef struct run_hosts {
  bool *used;        /* by netpoint */
  GHashTable *under; /* zone netpoint + 1 -> GArray of used hosts below */
  GHashTable *gw_ok; /* (zone netpoint, gateway, direction) checked */
} run_hosts;

/* Refuses the pair a -> b; why: the reason stored for the pair (from, to). */
static bool refuse_pair(cs_xml_platform *x, GError **err, int a, int b, int from, int to)
{
  gint64 k = pair_key(from, to);
  const char *why = g_hash_table_lookup(x->reason, &k);
  char *bn = shown(NP(x, b)->name);
  refuse_at(x, err, "host", NP(x, a)->name, "no route to <host id=\"%s\"> (%s)", bn,
            why ? why : "SimGrid finds no link between them");
  g_free(bn);
  return false;
}

static int rep_of(cs_xml_platform *x, int c)
{
  return NP(x, c)->kind == NP_ZONE ? ZONE(x, NP(x, c)->zone)->rep : c;
}

/* The used hosts below child c (c itself for a host). */
static const int *members(cs_xml_platform *x, const run_hosts *u, const int *c, guint *count)
{
  if (NP(x, *c)->kind != NP_ZONE) {
    *count = 1;
    return c;
  }
  GArray *a = g_hash_table_lookup(u->under, GINT_TO_POINTER(*c + 1));
  *count = a ? a->len : 0;
  return a ? (const int *)(void *)a->data : NULL;
}

/* A route with links between children s and d: SimGrid finds a route
 * unless the way from a host of s to the route's first gateway (forward),
 * or from its last gateway to a host of d, has none. */
static bool hosts_and_gateway(cs_xml_platform *x, run_hosts *u, int s, int gw, bool forward, int other,
                              GError **err)
{
  gint64 *k = g_new(gint64, 1);
  *k = pair_key(s * 2 + forward, gw);
  if (!g_hash_table_add(u->gw_ok, k))
    return true;
  guint n = 0;
  const int *h = members(x, u, &s, &n);
  for (guint i = 0; i < n; i++) {
    int from = forward ? h[i] : gw, to = forward ? gw : h[i];
    if (reach(x, from, to, 1) == R_NONE)
      return forward ? refuse_pair(x, err, h[i], other, from, to) : refuse_pair(x, err, other, h[i], from, to);
  }
  return true;
}

/* Each pair of used hosts of children s and d, one by one. */
static bool host_pairs(cs_xml_platform *x, const run_hosts *u, const int *s, const int *d, GError **err)
{
  guint ns = 0, nd = 0;
  const int *hs = members(x, u, s, &ns), *hd = members(x, u, d, &nd);
  for (guint i = 0; i < ns; i++)
    for (guint j = 0; j < nd; j++)
      if (reach(x, hs[i], hd[j], 0) != R_LINKS)
        return refuse_pair(x, err, hs[i], hd[j], hs[i], hd[j]);
  return true;
}

static bool check_full_zone(cs_xml_platform *x, run_hosts *u, zone *z, const GArray *c, GError **err)
{
  for (guint i = 0; i < c->len; i++)
    for (guint j = 0; j < c->len; j++) {
      const int *s = &g_array_index(c, int, i), *d = &g_array_index(c, int, j);
      if (i == j)
        continue;
      found_route r = full_route(x, z, *s, *d);
      if (!r.exists || r.bypass || !r.links) { /* rare: host by host */
        if (!host_pairs(x, u, s, d, err))
          return false;
        continue;
      }
      if (NP(x, *s)->kind == NP_ZONE && r.gw_src >= 0 &&
          !hosts_and_gateway(x, u, *s, r.gw_src, true, rep_of(x, *d), err))
        return false;
      if (NP(x, *d)->kind == NP_ZONE && r.gw_dst >= 0 &&
          !hosts_and_gateway(x, u, *d, r.gw_dst, false, rep_of(x, *s), err))
        return false;
    }
  return true;
}

/* Every child reaches every other: all in one strongly connected part. */
static bool check_graph_zone(cs_xml_platform *x, zone *z, const GArray *c, GError **err)
{
  int first = g_array_index(c, int, 0);
  GHashTable *fwd = graph_reach(x, z, first, false), *bwd = graph_reach(x, z, first, true);
  bool ok = true;
  for (guint i = 1; ok && i < c->len; i++) {
    int other = g_array_index(c, int, i);
    bool to = g_hash_table_contains(fwd, GINT_TO_POINTER(other + 1));
    if (!to || !g_hash_table_contains(bwd, GINT_TO_POINTER(other + 1))) {
      int s = to ? other : first, d = to ? first : other;
      gint64 key = pair_key(rep_of(x, s), rep_of(x, d));
      g_hash_table_replace(x->reason, key_dup(key), no_route(x, z, s, d, false));
      ok = refuse_pair(x, err, rep_of(x, s), rep_of(x, d), rep_of(x, s), rep_of(x, d));
    }
  }
  g_hash_table_destroy(fwd);
  g_hash_table_destroy(bwd);
  return ok;
}
/* The routes between the children of one zone that hold used hosts. */
static bool check_zone(cs_xml_platform *x, run_hosts *u, int zi, GError **err)
{
  zone *z = ZONE(x, zi);
  if (z->routing == ROUTED_BUILT || z->used_below < 2)
    return true;
  GArray *c = g_array_new(FALSE, FALSE, sizeof(int));
  for (guint i = 0; i < z->children->len; i++) {
    int ch = g_array_index(z->children, int, i);
    netpoint *p = NP(x, ch);
    if ((p->kind == NP_HOST && u->used[ch]) || (p->kind == NP_ZONE && ZONE(x, p->zone)->used_below > 0))
      g_array_append_val(c, ch);
  }
  bool ok = c->len < 2 ||
            (z->routing == ROUTED_FULL ? check_full_zone(x, u, z, c, err) : check_graph_zone(x, z, c, err));
  g_array_free(c, TRUE);
  return ok;
}

/* Marks the first m hosts used; counts them in each zone. */
static void mark_used(cs_xml_platform *x, run_hosts *u, size_t m)
{
  for (guint i = 0; i < x->zones->len; i++) {
    ZONE(x, i)->used_below = 0;
    ZONE(x, i)->rep = -1;
  }
  for (size_t i = 0; i < m; i++) {
    int h = g_array_index(x->hosts, int, i);
    u->used[h] = true;
    for (int zi = NP(x, h)->parent; zi >= 0; zi = ZONE(x, zi)->parent) {
      zone *z = ZONE(x, zi);
      if (z->used_below++ == 0)
        z->rep = h;
      if (z->parent >= 0 && ZONE(x, z->parent)->routing == ROUTED_FULL) {
        GArray *a = g_hash_table_lookup(u->under, GINT_TO_POINTER(z->np + 1));
        if (!a) {
          a = g_array_new(FALSE, FALSE, sizeof(int));
          g_hash_table_insert(u->under, GINT_TO_POINTER(z->np + 1), a);
        }
        g_array_append_val(a, h);
      }
    }
  }
}

bool cs_xml_platform_check_routes(cs_xml_platform *x, size_t used, GError **err)
{
  size_t m = MIN(used, (size_t)x->hosts->len);
  if (x->has_include || m < 2)
    return true;
  if (x->memo)
    g_hash_table_destroy(x->memo);
  if (x->reason)
    g_hash_table_destroy(x->reason);
  x->memo = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  x->reason = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  run_hosts u = {g_new0(bool, x->np->len),
                 g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)g_array_unref),
                 g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL)};
  mark_used(x, &u, m);
  bool ok = true;
  for (guint zi = 0; ok && zi < x->zones->len; zi++)
    ok = check_zone(x, &u, (int)zi, err);
  g_free(u.used);
  g_hash_table_destroy(u.under);
  g_hash_table_destroy(u.gw_ok);
  return ok;
}
