/* PERCS and Dragonfly two-tier platforms (seed 001, Sections 2-3).
 *
 * What the paper fixes (Section 3): in-order mapping of ranks to cores, nodes
 * and supernodes; an all-to-all L1 clique inside each supernode and one L2
 * link between every pair of supernodes, the link from S1 to S2 leaving node
 * (S2 mod nps) of S1 and landing on node (S1 mod nps) of S2; one transfer
 * time per byte (beta) for every link.  What it leaves open, and our choices:
 *
 * - Link speeds.  One bandwidth for L1 and L2 (the paper's single beta):
 *   10 GB/s (1e10 bytes/s) per direction, 100 ns latency per link.  Links are
 *   directed (one per ordered pair, SHARED policy): the paper counts 15360 L1
 *   and 4032 L2 links for 64 x 16 nodes, i.e. one per direction.
 * - Intra-node traffic (ranks of one node, shared memory): a loopback link per
 *   node, 100 GB/s, zero latency, FATPIPE (as SimGrid's own cluster loopback:
 *   each flow may use the full bandwidth).  Without a route from a host to
 *   itself two actors of one host cannot talk.
 * - Host speed 1 Gflop/s per core, `core` = cores per node (only computation
 *   uses it).
 * - Dragonfly (Kim et al., ISCA 2008): G groups of A routers, H global ports
 *   and P nodes per router, C cores per node.  Terminal links node<->router
 *   (tier T, 10 GB/s by default), an all-to-all of directed local links between
 *   the routers of a group (tier L1), one directed global link per ordered pair
 *   of groups (tier L2).  Global arrangement (circulant, also called relative):
 *   global port j = 0..G-2 of group g (port j on router j / H) connects to
 *   group (g + j + 1) mod G.  The cable between g1 and g2 thus joins port
 *   (g2 - g1 - 1) mod G of g1 and port (g1 - g2 - 1) mod G of g2; both
 *   directions use the same pair of routers, every pair of groups is joined
 *   exactly once, and ports G-1..A*H-1 stay unused (we need G-1 <= A*H; no
 *   parallel global links).  Minimal routing: node -> its router -> [local
 *   link to the gateway router] -> global link -> [local link to the
 *   destination's router] -> node.
 * - Two-tier view of a Dragonfly: a group is a supernode, nps = A*P, node j of
 *   a group hangs off router j / P.  The gateway node of the global link that
 *   uses port j of a group is node (j / H) * P + (j mod H) mod P: a node of the
 *   gateway router, the router's ports spread over its nodes round robin (as
 *   PERCS spreads L2 links over nodes).
 *
 * XML (SimGrid 3.32, DTD version 4.1), all routes symmetrical="NO", values
 * in base units (Bps, s) so that SimGrid reads back exactly our doubles:
 * - Every link is declared in a first, host-less zone "links" (see
 *   percs_links for why) and has a property tier = L1, L2, T or loopback.
 * - PERCS: top zone "percs" (Full) with one Full zone "sn-<s>" per supernode:
 *   hosts node-<g> (g = s*nps + j), a route per ordered pair over link
 *   L1-s<s>-n<i>-n<j>, and node-<g> -> node-<g> over its loopback
 *   lo-node-<g>; at the top, zoneRoutes over L2-s<a>-s<b> with gw_src /
 *   gw_dst the gateway and landing hosts.
 * - Dragonfly: three levels so that the file grows with A*P^2 per group and
 *   not (A*P)^2: top zone "dragonfly" (Full) > group zones "grp-<g>" (Full) >
 *   router zones "rtr-<g>-<r>" (Full) holding the router netpoint
 *   router-<g>-<r>, its P hosts and the routes between them over the
 *   terminal links T-g<g>-r<r>-n<j>-up / -down (j: node in the group) and
 *   loopbacks; zoneRoutes between router zones over L1-g<g>-r<a>-r<b>
 *   (gateways: the routers); zoneRoutes between groups over L2-g<a>-g<b>
 *   (gateways: gateway and landing routers).
 * Measured here: percs:64,16,16 4.7 MB, written in 0.02 s, loaded by SimGrid
 * in 0.14 s; percs:256,32,128 77 MB, 0.15 s, 2.5 s (350 MB of memory);
 * dragonfly:64,16,4,8 (8192 nodes) 20 MB, 0.05 s, 0.7 s.
 */
#include "platforms/net.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK(collsim-net-error, cs_net_error)

#define DEFAULT_BW 10e9      /* bytes/s, L1, L2 and terminal links */
#define DEFAULT_LAT 100e-9   /* s per link */
#define DEFAULT_LO_BW 100e9  /* bytes/s, intra-node */
#define DEFAULT_LO_LAT 0.0
#define HOST_SPEED "1Gf"
#define MAX_P INT32_MAX
#define MAX_LINKS ((int64_t)1 << 26) /* refuse to write more (several GB of XML) */

static void spec_error(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void spec_error(GError **err, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error_literal(err, CS_NET_ERROR, CS_NET_ERROR_SPEC, msg);
  g_free(msg);
}

/* ---- numbers with units ---- */

/* value = number * mult / div: both steps exact or correctly rounded for the
 * powers of ten and two used here (100ns = 100 / 1e9, exactly 1e-7). */
typedef struct unit {
  const char *suffix;
  double mult, div;
} unit;

static const unit bw_units[] = {
    {"GBps", 1e9, 1},  {"MBps", 1e6, 1},  {"kBps", 1e3, 1},  {"Bps", 1, 1}, /* describe() uses these four */
    {"TBps", 1e12, 1}, {"KBps", 1e3, 1},  {"TiBps", 1099511627776.0, 1},   {"GiBps", 1073741824.0, 1},
    {"MiBps", 1048576.0, 1}, {"KiBps", 1024.0, 1}, {"Tbps", 1e12, 8}, {"Gbps", 1e9, 8}, {"Mbps", 1e6, 8},
    {"kbps", 1e3, 8},  {"Kbps", 1e3, 8},  {"bps", 1, 8},     {"", 1, 1},
};
#define BW_FORMAT_UNITS 4

static const unit lat_units[] = {
    {"s", 1, 1}, {"ms", 1, 1e3}, {"us", 1, 1e6}, {"ns", 1, 1e9}, {"ps", 1, 1e12}, {"", 1, 1},
};
#define LAT_FORMAT_UNITS 4

static double apply_unit(double x, const unit *u) { return x * u->mult / u->div; }

static bool parse_number_unit(const char *key, const char *text, const unit *units, size_t nunits, double *out,
                              GError **err)
{
  if (!g_ascii_isdigit(text[0]) && !(text[0] == '.' && g_ascii_isdigit(text[1]))) {
    spec_error(err, "link parameter %s = '%s' is not a non-negative number", key, text);
    return false;
  }
  /* decimal only: digits [. digits] [e [+-] digits] (strtod would take hex) */
  const char *end = text;
  while (g_ascii_isdigit(*end))
    end++;
  if (*end == '.')
    for (end++; g_ascii_isdigit(*end); end++)
      ;
  if ((*end == 'e' || *end == 'E') &&
      (g_ascii_isdigit(end[1]) || ((end[1] == '+' || end[1] == '-') && g_ascii_isdigit(end[2]))))
    for (end += 2; g_ascii_isdigit(*end); end++)
      ;
  char *number = g_strndup(text, (gsize)(end - text));
  errno = 0;
  double x = g_ascii_strtod(number, NULL);
  g_free(number);
  if (errno == ERANGE || !isfinite(x)) {
    spec_error(err, "link parameter %s = '%s' is out of range", key, text);
    return false;
  }
  for (size_t i = 0; i < nunits; i++) {
    if (strcmp(end, units[i].suffix) == 0) {
      *out = apply_unit(x, &units[i]);
      if (!isfinite(*out)) {
        spec_error(err, "link parameter %s = '%s' is out of range", key, text);
        return false;
      }
      return true;
    }
  }
  GString *known = g_string_new(NULL);
  for (size_t i = 0; i < nunits; i++)
    if (*units[i].suffix)
      g_string_append_printf(known, "%s%s", known->len ? ", " : "", units[i].suffix);
  spec_error(err, "link parameter %s = '%s': unknown unit '%s' (known: %s, or none)", key, text, end, known->str);
  g_string_free(known, TRUE);
  return false;
}

static bool parse_bandwidth(const char *key, const char *text, double *out, GError **err)
{
  if (!parse_number_unit(key, text, bw_units, G_N_ELEMENTS(bw_units), out, err))
    return false;
  if (*out <= 0) {
    spec_error(err, "link parameter %s = '%s': a bandwidth must be positive", key, text);
    return false;
  }
  return true;
}

static bool parse_latency(const char *key, const char *text, double *out, GError **err)
{
  return parse_number_unit(key, text, lat_units, G_N_ELEMENTS(lat_units), out, err);
}

/* Shortest decimal form of x that reads back as x. */
static void shortest(char *buf, size_t len, double x)
{
  if (x == floor(x) && fabs(x) < 1e15) {
    snprintf(buf, len, "%.0f", x);
    return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    char fmt[16];
    snprintf(fmt, sizeof fmt, "%%.%dg", prec);
    g_ascii_formatd(buf, (int)len, fmt, x);
    if (g_ascii_strtod(buf, NULL) == x)
      return;
  }
}

/* x in the first of the first nformat units where it is >= 1 and reads back
 * exactly; else plain bytes/s or seconds. */
static void format_with_unit(GString *s, double x, const unit *units, size_t nformat)
{
  char num[64];
  for (size_t i = 0; i < nformat && x != 0; i++) {
    double v = x * units[i].div / units[i].mult;
    if (v < 1)
      continue;
    shortest(num, sizeof num, v);
    if (apply_unit(g_ascii_strtod(num, NULL), &units[i]) == x) {
      g_string_append_printf(s, "%s%s", num, units[i].suffix);
      return;
    }
  }
  shortest(num, sizeof num, x);
  g_string_append_printf(s, "%s%s", num, units == lat_units ? "s" : "Bps");
}

/* ---- spec ---- */

static bool parse_count(const char *kind, const char *name, const char *text, int64_t *out, GError **err)
{
  if (!*text) {
    spec_error(err, "%s: %s is missing (empty field)", kind, name);
    return false;
  }
  for (const char *c = text; *c; c++) {
    if (!g_ascii_isdigit(*c)) {
      spec_error(err, "%s: %s = '%s' is not a positive integer", kind, name, text);
      return false;
    }
  }
  errno = 0;
  long long v = strtoll(text, NULL, 10);
  if (errno == ERANGE || v > MAX_P) {
    spec_error(err, "%s: %s = %s is too large (at most 2^31-1)", kind, name, text);
    return false;
  }
  if (v == 0) {
    spec_error(err, "%s: %s must be at least 1", kind, name);
    return false;
  }
  *out = v;
  return true;
}

/* a * b, or -1 if it exceeds MAX_P (a, b <= MAX_P, so no int64 overflow). */
static int64_t mul_capped(int64_t a, int64_t b)
{
  if (a < 0 || b < 0)
    return -1;
  int64_t v = a * b;
  return v > MAX_P ? -1 : v;
}

static bool parse_fields(const char *kind, const char *text, const char *const *names, int min, int max,
                         int64_t *v, GError **err)
{
  char **f = g_strsplit(text, ",", -1);
  int n = (int)g_strv_length(f);
  bool ok = n >= min && n <= max;
  if (!ok) {
    GString *want = g_string_new(NULL);
    for (int i = 0; i < max; i++)
      g_string_append_printf(want, "%s%s%s", i ? "," : "", i == min ? "[" : "", names[i]);
    if (max > min)
      g_string_append(want, "]");
    spec_error(err, "%s needs %s (%s), got %d field%s in '%s'", kind, want->str,
               n < min ? "missing fields" : "extra fields", n, n == 1 ? "" : "s", text);
    g_string_free(want, TRUE);
  }
  for (int i = 0; ok && i < n; i++)
    ok = parse_count(kind, names[i], f[i], &v[i], err);
  g_strfreev(f);
  return ok;
}

static void set_defaults(cs_net *n)
{
  n->l1_bw = n->l2_bw = n->term_bw = DEFAULT_BW;
  n->latency = DEFAULT_LAT;
  n->loopback_bw = DEFAULT_LO_BW;
  n->loopback_lat = DEFAULT_LO_LAT;
}

static bool parse_percs(const char *fields, cs_net *n, GError **err)
{
  static const char *const names[] = {"SN", "NPS", "CPN"};
  int64_t v[3];
  if (!parse_fields("percs", fields, names, 3, 3, v, err))
    return false;
  n->kind = CS_NET_PERCS;
  n->sn = v[0];
  n->nps = v[1];
  n->cpn = v[2];
  n->p = mul_capped(mul_capped(n->sn, n->nps), n->cpn);
  if (n->p < 0) {
    spec_error(err, "percs:%s: p = SN*NPS*CPN exceeds 2^31-1", fields);
    return false;
  }
  return true;
}

static bool parse_dragonfly(const char *fields, cs_net *n, GError **err)
{
  static const char *const names[] = {"G", "A", "H", "P", "C"};
  int64_t v[5] = {0, 0, 0, 0, 1}; /* C defaults to 1 */
  if (!parse_fields("dragonfly", fields, names, 4, 5, v, err))
    return false;
  n->kind = CS_NET_DRAGONFLY;
  n->df_g = v[0];
  n->df_a = v[1];
  n->df_h = v[2];
  n->df_p = v[3];
  n->sn = v[0];
  n->nps = mul_capped(v[1], v[3]);
  n->cpn = v[4];
  n->p = mul_capped(mul_capped(n->sn, n->nps), n->cpn);
  if (n->p < 0) {
    spec_error(err, "dragonfly:%s: p = G*A*P*C exceeds 2^31-1", fields);
    return false;
  }
  if (n->df_g - 1 > n->df_a * n->df_h) {
    spec_error(err,
               "dragonfly:%s: cannot connect every pair of groups with one global link: G-1 = %lld other groups "
               "but only A*H = %lld global ports per group",
               fields, (long long)(n->df_g - 1), (long long)(n->df_a * n->df_h));
    return false;
  }
  return true;
}

enum { K_BW, K_L1, K_L2, K_TERM, K_LAT, K_LO, K_LOLAT, NKEYS };
static const char *const key_names[NKEYS] = {"bw", "l1", "l2", "term", "lat", "loopback", "loopback_lat"};

/* One "key=value" of the link parameters (item is modified). */
static bool parse_item(char *item, const cs_net *n, double *val, bool *given, GError **err)
{
  char *eq = strchr(item, '=');
  if (!eq || eq == item) {
    spec_error(err, "link parameter '%s' is not key=value", item);
    return false;
  }
  *eq = '\0';
  const char *key = item, *value = eq + 1;
  int k = 0;
  while (k < NKEYS && strcmp(key, key_names[k]) != 0)
    k++;
  if (k == NKEYS)
    spec_error(err, "unknown link parameter '%s' (known: bw, l1, l2, term, lat, loopback, loopback_lat)", key);
  else if (given[k])
    spec_error(err, "link parameter '%s' given twice", key);
  else if (k == K_TERM && n->kind != CS_NET_DRAGONFLY)
    spec_error(err, "link parameter 'term' (terminal links) applies to dragonfly only");
  else if (!*value)
    spec_error(err, "link parameter %s has no value", key);
  else {
    given[k] = true;
    return (k == K_LAT || k == K_LOLAT) ? parse_latency(key, value, &val[k], err)
                                        : parse_bandwidth(key, value, &val[k], err);
  }
  return false;
}

/* "bw" sets the three network bandwidths first; l1, l2, term override it. */
static bool parse_params(const char *text, cs_net *n, GError **err)
{
  if (!*text) {
    spec_error(err, "empty link parameter list after '/' (e.g. /l1=10GBps,lat=100ns)");
    return false;
  }
  double val[NKEYS];
  bool given[NKEYS] = {false};
  char **items = g_strsplit(text, ",", -1);
  bool ok = true;
  for (char **it = items; ok && *it; it++)
    ok = parse_item(*it, n, val, given, err);
  g_strfreev(items);
  if (!ok)
    return false;
  double *dest[NKEYS] = {NULL, &n->l1_bw, &n->l2_bw, &n->term_bw, &n->latency, &n->loopback_bw, &n->loopback_lat};
  if (given[K_BW])
    n->l1_bw = n->l2_bw = n->term_bw = val[K_BW];
  for (int k = K_L1; k < NKEYS; k++)
    if (given[k])
      *dest[k] = val[k];
  return true;
}

bool cs_net_parse(const char *spec, cs_net *out, GError **err)
{
  if (!spec || !*spec) {
    spec_error(err, "empty network spec (expected percs:SN,NPS,CPN or dragonfly:G,A,H,P[,C])");
    return false;
  }
  const char *colon = strchr(spec, ':');
  if (!colon) {
    spec_error(err, "network spec '%s' has no ':' (expected percs:SN,NPS,CPN or dragonfly:G,A,H,P[,C])", spec);
    return false;
  }
  char *kind = g_strndup(spec, (gsize)(colon - spec));
  const char *slash = strchr(colon + 1, '/');
  char *fields = slash ? g_strndup(colon + 1, (gsize)(slash - colon - 1)) : g_strdup(colon + 1);
  cs_net n;
  memset(&n, 0, sizeof n);
  set_defaults(&n);
  bool ok;
  if (strcmp(kind, "percs") == 0)
    ok = parse_percs(fields, &n, err);
  else if (strcmp(kind, "dragonfly") == 0)
    ok = parse_dragonfly(fields, &n, err);
  else {
    spec_error(err, "unknown network kind '%s' in '%s' (known: percs, dragonfly)", kind, spec);
    ok = false;
  }
  if (ok && slash)
    ok = parse_params(slash + 1, &n, err);
  g_free(kind);
  g_free(fields);
  if (ok)
    *out = n;
  return ok;
}

char *cs_net_describe(const cs_net *n)
{
  GString *s = g_string_new(NULL);
  if (n->kind == CS_NET_PERCS)
    g_string_printf(s, "percs:%lld,%lld,%lld", (long long)n->sn, (long long)n->nps, (long long)n->cpn);
  else
    g_string_printf(s, "dragonfly:%lld,%lld,%lld,%lld,%lld", (long long)n->df_g, (long long)n->df_a,
                    (long long)n->df_h, (long long)n->df_p, (long long)n->cpn);
  const struct {
    const char *key;
    double value, def;
    bool latency;
  } params[] = {
      {"l1", n->l1_bw, DEFAULT_BW, false},
      {"l2", n->l2_bw, DEFAULT_BW, false},
      {"term", n->kind == CS_NET_DRAGONFLY ? n->term_bw : DEFAULT_BW, DEFAULT_BW, false},
      {"lat", n->latency, DEFAULT_LAT, true},
      {"loopback", n->loopback_bw, DEFAULT_LO_BW, false},
      {"loopback_lat", n->loopback_lat, DEFAULT_LO_LAT, true},
  };
  char sep = '/';
  for (size_t i = 0; i < G_N_ELEMENTS(params); i++) {
    if (params[i].value == params[i].def)
      continue;
    g_string_append_printf(s, "%c%s=", sep, params[i].key);
    format_with_unit(s, params[i].value, params[i].latency ? lat_units : bw_units,
                     params[i].latency ? LAT_FORMAT_UNITS : BW_FORMAT_UNITS);
    sep = ',';
  }
  return g_string_free(s, FALSE);
}

/* ---- wiring ---- */

static bool pair_ok(const cs_net *n, int64_t from, int64_t to)
{
  return from >= 0 && to >= 0 && from < n->sn && to < n->sn && from != to;
}

/* Dragonfly: global port of group `from` used for group `to`. */
static int64_t df_port(const cs_net *n, int64_t from, int64_t to)
{
  return ((to - from) % n->df_g + n->df_g) % n->df_g - 1;
}

int64_t cs_net_df_gateway_router(const cs_net *n, int64_t from, int64_t to)
{
  if (n->kind != CS_NET_DRAGONFLY || !pair_ok(n, from, to))
    return -1;
  return df_port(n, from, to) / n->df_h;
}

int64_t cs_net_df_landing_router(const cs_net *n, int64_t from, int64_t to)
{
  return cs_net_df_gateway_router(n, to, from);
}

int64_t cs_net_gateway(const cs_net *n, int64_t from, int64_t to)
{
  if (!pair_ok(n, from, to))
    return -1;
  if (n->kind == CS_NET_PERCS)
    return to % n->nps;
  int64_t j = df_port(n, from, to);
  return (j / n->df_h) * n->df_p + (j % n->df_h) % n->df_p;
}

int64_t cs_net_landing(const cs_net *n, int64_t from, int64_t to)
{
  return cs_net_gateway(n, to, from);
}

int64_t cs_net_nodes(const cs_net *n) { return n->sn * n->nps; }

cs_net cs_net_percs(int64_t sn, int64_t nps, int64_t cpn)
{
  cs_net n;
  memset(&n, 0, sizeof n);
  set_defaults(&n);
  n.kind = CS_NET_PERCS;
  n.sn = sn;
  n.nps = nps;
  n.cpn = cpn;
  n.p = sn * nps * cpn;
  return n;
}

cs_net_link_counts cs_net_count_links(const cs_net *n)
{
  cs_net_link_counts c = {0, n->sn * (n->sn - 1), 0, cs_net_nodes(n)};
  if (n->kind == CS_NET_PERCS) {
    c.l1 = n->sn * n->nps * (n->nps - 1);
  } else {
    c.l1 = n->df_g * n->df_a * (n->df_a - 1);
    c.term = 2 * cs_net_nodes(n);
  }
  return c;
}

/* ---- XML ---- */

typedef struct xml_ctx {
  FILE *f;
  const cs_net *n;
  char *l1, *l2, *term, *lat, *lo, *lolat; /* attribute values */
} xml_ctx;

#define LL(x) ((long long)(x))

static void x_link_attrs(xml_ctx *x, const char *bw, const char *lat, const char *policy, const char *tier)
{
  fprintf(x->f, "\" bandwidth=\"%s\" latency=\"%s\" sharing_policy=\"%s\"><prop id=\"tier\" value=\"%s\"/></link>\n",
          bw, lat, policy, tier);
}

static void x_loopback(xml_ctx *x, int64_t g)
{
  fprintf(x->f, "      <link id=\"lo-node-%lld", LL(g));
  x_link_attrs(x, x->lo, x->lolat, "FATPIPE", "loopback");
}

static void x_host(xml_ctx *x, const char *indent, int64_t g)
{
  fprintf(x->f, "%s<host id=\"node-%lld\" speed=\"" HOST_SPEED "\" core=\"%lld\"/>\n", indent, LL(g), LL(x->n->cpn));
}

static void x_loopback_route(xml_ctx *x, const char *indent, int64_t g)
{
  fprintf(x->f, "%s<route src=\"node-%lld\" dst=\"node-%lld\" symmetrical=\"NO\"><link_ctn id=\"lo-node-%lld\"/></route>\n",
          indent, LL(g), LL(g), LL(g));
}

/* SimGrid 3.32 resolves each <link_ctn> by a depth-first search of the zone
 * tree from the root, so a link declared in the k-th zone costs a visit of
 * the k-1 zones before it: 10-13 s to load 8192 nodes.  Declaring every link
 * in a first zone "links" (no hosts, no routes) makes it one map lookup:
 * 0.7-2.2 s.  Links must come after sub-zones in a zone, hence the extra zone. */
static void percs_links(xml_ctx *x)
{
  const cs_net *n = x->n;
  for (int64_t s = 0; s < n->sn; s++) {
    for (int64_t j = 0; j < n->nps; j++)
      x_loopback(x, s * n->nps + j);
    for (int64_t i = 0; i < n->nps; i++)
      for (int64_t j = 0; j < n->nps; j++)
        if (i != j) {
          fprintf(x->f, "      <link id=\"L1-s%lld-n%lld-n%lld", LL(s), LL(i), LL(j));
          x_link_attrs(x, x->l1, x->lat, "SHARED", "L1");
        }
  }
  for (int64_t a = 0; a < n->sn; a++)
    for (int64_t b = 0; b < n->sn; b++)
      if (a != b) {
        fprintf(x->f, "      <link id=\"L2-s%lld-s%lld", LL(a), LL(b));
        x_link_attrs(x, x->l2, x->lat, "SHARED", "L2");
      }
}

static void percs_supernode(xml_ctx *x, int64_t s)
{
  FILE *f = x->f;
  int64_t nps = x->n->nps, base = s * nps;
  fprintf(f, "    <zone id=\"sn-%lld\" routing=\"Full\">\n", LL(s));
  for (int64_t j = 0; j < nps; j++)
    x_host(x, "      ", base + j);
  for (int64_t i = 0; i < nps; i++) {
    x_loopback_route(x, "      ", base + i);
    for (int64_t j = 0; j < nps; j++)
      if (i != j)
        fprintf(f,
                "      <route src=\"node-%lld\" dst=\"node-%lld\" symmetrical=\"NO\">"
                "<link_ctn id=\"L1-s%lld-n%lld-n%lld\"/></route>\n",
                LL(base + i), LL(base + j), LL(s), LL(i), LL(j));
  }
  fputs("    </zone>\n", f);
}

static void percs_xml(xml_ctx *x)
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

static void df_links(xml_ctx *x)
{
  const cs_net *n = x->n;
  for (int64_t g = 0; g < n->df_g; g++) {
    for (int64_t j = 0; j < n->nps; j++) {
      x_loopback(x, g * n->nps + j);
      for (int up = 1; up >= 0; up--) {
        fprintf(x->f, "      <link id=\"T-g%lld-r%lld-n%lld-%s", LL(g), LL(j / n->df_p), LL(j), up ? "up" : "down");
        x_link_attrs(x, x->term, x->lat, "SHARED", "T");
      }
    }
    for (int64_t a = 0; a < n->df_a; a++)
      for (int64_t b = 0; b < n->df_a; b++)
        if (a != b) {
          fprintf(x->f, "      <link id=\"L1-g%lld-r%lld-r%lld", LL(g), LL(a), LL(b));
          x_link_attrs(x, x->l1, x->lat, "SHARED", "L1");
        }
  }
  for (int64_t a = 0; a < n->df_g; a++)
    for (int64_t b = 0; b < n->df_g; b++)
      if (a != b) {
        fprintf(x->f, "      <link id=\"L2-g%lld-g%lld", LL(a), LL(b));
        x_link_attrs(x, x->l2, x->lat, "SHARED", "L2");
      }
}

static void df_router(xml_ctx *x, int64_t g, int64_t r)
{
  const cs_net *n = x->n;
  FILE *f = x->f;
  const char *in = "        ";
  int64_t first = r * n->df_p, base = g * n->nps; /* router's first node in the group; group's first node */
  fprintf(f, "      <zone id=\"rtr-%lld-%lld\" routing=\"Full\">\n", LL(g), LL(r));
  for (int64_t k = 0; k < n->df_p; k++)
    x_host(x, in, base + first + k);
  fprintf(f, "%s<router id=\"router-%lld-%lld\"/>\n", in, LL(g), LL(r));
  for (int64_t i = first; i < first + n->df_p; i++) {
    x_loopback_route(x, in, base + i);
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

static void df_group(xml_ctx *x, int64_t g)
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

static void dragonfly_xml(xml_ctx *x)
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

/* Values in the XML are in base units (Bps, s), shortest exact decimal:
 * SimGrid multiplies "50ns" by 1e-9, which is not exactly 50 / 1e9. */
static char *base_unit_string(double x, const char *unit)
{
  char num[64];
  shortest(num, sizeof num, x);
  return g_strconcat(num, unit, NULL);
}

static void write_platform(FILE *f, const cs_net *n)
{
  xml_ctx x = {f,
               n,
               base_unit_string(n->l1_bw, "Bps"),
               base_unit_string(n->l2_bw, "Bps"),
               base_unit_string(n->term_bw, "Bps"),
               base_unit_string(n->latency, "s"),
               base_unit_string(n->loopback_bw, "Bps"),
               base_unit_string(n->loopback_lat, "s")};
  char *desc = cs_net_describe(n);
  fprintf(f,
          "<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!-- %s: %lld nodes of %lld cores; generated by collsim (platforms/net.c) -->\n"
          "<platform version=\"4.1\">\n",
          desc, (long long)cs_net_nodes(n), (long long)n->cpn);
  if (n->kind == CS_NET_PERCS)
    percs_xml(&x);
  else
    dragonfly_xml(&x);
  fputs("</platform>\n", f);
  g_free(desc);
  g_free(x.l1);
  g_free(x.l2);
  g_free(x.term);
  g_free(x.lat);
  g_free(x.lo);
  g_free(x.lolat);
}

/* A temporary file next to path (so that rename() replaces path atomically),
 * with the mode a new file would get, and a 1 MiB buffer. */
static FILE *open_temp(const char *path, char **tmp, char **buf, GError **err)
{
  char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
  *tmp = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
  g_free(dir);
  g_free(base);
  int fd = g_mkstemp(*tmp);
  FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
  if (!f) {
    g_set_error(err, CS_NET_ERROR, CS_NET_ERROR_IO, "cannot create a temporary file next to %s: %s", path,
                g_strerror(errno));
    if (fd >= 0) {
      close(fd);
      g_unlink(*tmp);
    }
    g_clear_pointer(tmp, g_free);
    return NULL;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask); /* on failure the file keeps mkstemp's 0600 */
  *buf = g_malloc(1 << 20);
  setvbuf(f, *buf, _IOFBF, 1 << 20);
  return f;
}

bool cs_net_write_xml(const cs_net *n, const char *path, GError **err)
{
  cs_net_link_counts c = cs_net_count_links(n);
  int64_t links = c.l1 + c.l2 + c.term + c.loopback;
  if (links > MAX_LINKS) {
    char *d = cs_net_describe(n);
    g_set_error(err, CS_NET_ERROR, CS_NET_ERROR_SIZE, "%s has %lld links: too many for an XML platform (at most %lld)",
                d, (long long)links, (long long)MAX_LINKS);
    g_free(d);
    return false;
  }
  char *tmp, *buf;
  FILE *f = open_temp(path, &tmp, &buf, err);
  if (!f)
    return false;
  errno = 0;
  write_platform(f, n);
  int saved = ferror(f) ? (errno ? errno : EIO) : 0;
  if (fclose(f) != 0 && !saved)
    saved = errno;
  g_free(buf);
  if (!saved && rename(tmp, path) != 0)
    saved = errno;
  if (saved) {
    g_set_error(err, CS_NET_ERROR, CS_NET_ERROR_IO, "cannot write %s: %s", path, g_strerror(saved));
    g_unlink(tmp);
  }
  g_free(tmp);
  return !saved;
}
