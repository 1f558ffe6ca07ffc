/* Unit tests of the two-tier platform descriptions (platforms/net.[ch]):
 *  - the parser accepts PERCS and Dragonfly specs with link parameters and
 *    units, and rejects every malformed spec with a message naming the
 *    problem (domain CS_INPUT_ERROR);
 *  - the canonical description drops defaults and reads back to the same net;
 *  - PERCS gateway / landing follow Section 3 (S2 mod nps, S1 mod nps);
 *  - Dragonfly: every pair of groups is joined by exactly one cable, the same
 *    pair of routers in both directions, at most H cables per router, and the
 *    gateway node hangs off the gateway router;
 *  - the XML: well formed, one link per directed pair with its tier, the
 *    zoneRoutes' gateways as above, written atomically (no temporary file
 *    left, an old file untouched when writing fails).
 * None of these loads SimGrid (tests/unit/sg_routes.c does). */
#include "platforms/two_tier_spec.h"
#include "sim/contracts/errors.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXPECT(cond, ...)                                                                                      \
  do {                                                                                                         \
    if (!(cond))                                                                                               \
      ck_abort_msg(__VA_ARGS__);                                                                               \
  } while (0)

static cs_net parse_ok(const char *spec)
{
  cs_net n;
  GError *err = NULL;
  bool ok = cs_net_parse(spec, &n, &err);
  ck_assert_msg(ok, "'%s' rejected: %s", spec, err ? err->message : "?");
  return n;
}

/* ---- parser: accepted ---- */

START_TEST(test_percs_defaults)
{
  cs_net n = parse_ok("percs:64,16,16");
  ck_assert_ptr_eq(n.shape, &cs_net_shape_percs);
  ck_assert_int_eq(n.sn, 64);
  ck_assert_int_eq(n.nps, 16);
  ck_assert_int_eq(n.cpn, 16);
  ck_assert_int_eq(n.p, 16384);
  ck_assert_int_eq(n.df_g, 0);
  ck_assert(n.l1_bw == 10e9 && n.l2_bw == 10e9);
  ck_assert(n.latency == 100e-9);
  ck_assert(n.loopback_bw == 100e9 && n.loopback_lat == 0);
  ck_assert_int_eq(cs_net_nodes(&n), 1024);
  cs_net_link_counts c = cs_net_count_links(&n);
  ck_assert_int_eq(c.l1, 15360); /* the paper's figures, Section 6 */
  ck_assert_int_eq(c.l2, 4032);
  ck_assert_int_eq(c.term, 0);
  ck_assert_int_eq(c.loopback, 1024);
}
END_TEST

START_TEST(test_dragonfly_shapes)
{
  cs_net n = parse_ok("dragonfly:33,8,4,4");
  ck_assert_ptr_eq(n.shape, &cs_net_shape_dragonfly);
  ck_assert_int_eq(n.df_g, 33);
  ck_assert_int_eq(n.df_a, 8);
  ck_assert_int_eq(n.df_h, 4);
  ck_assert_int_eq(n.df_p, 4);
  ck_assert_int_eq(n.sn, 33);
  ck_assert_int_eq(n.nps, 32);
  ck_assert_int_eq(n.cpn, 1);
  ck_assert_int_eq(n.p, 1056);
  ck_assert(n.term_bw == 10e9);
  cs_net_link_counts c = cs_net_count_links(&n);
  ck_assert_int_eq(c.l1, 33 * 8 * 7);
  ck_assert_int_eq(c.l2, 33 * 32);
  ck_assert_int_eq(c.term, 2 * 1056);
  n = parse_ok("dragonfly:5,2,2,3,7");
  ck_assert_int_eq(n.cpn, 7);
  ck_assert_int_eq(n.nps, 6);
  ck_assert_int_eq(n.p, 5 * 6 * 7);
  n = parse_ok("dragonfly:1,1,1,1"); /* a single group needs no global link */
  ck_assert_int_eq(n.p, 1);
  n = parse_ok("dragonfly:9,4,2,2"); /* G-1 == A*H: every port used */
  ck_assert_int_eq(n.sn, 9);
}
END_TEST

START_TEST(test_link_parameters)
{
  cs_net n = parse_ok("percs:4,4,1/l1=5GBps,l2=40Gbps,lat=1.5us,loopback=1TBps,loopback_lat=10ns");
  ck_assert(n.l1_bw == 5e9);
  ck_assert(n.l2_bw == 5e9);
  ck_assert(n.latency == 1.5e-6);
  ck_assert(n.loopback_bw == 1e12);
  ck_assert(n.loopback_lat == 10e-9);
  n = parse_ok("percs:4,4,1/lat=100ns");
  ck_assert(n.latency == 100e-9);
  n = parse_ok("percs:4,4,1/lat=2ms,l1=12345");
  ck_assert(n.latency == 2e-3);
  ck_assert(n.l1_bw == 12345);
  n = parse_ok("percs:4,4,1/lat=0,l2=2GiBps,l1=3MiBps,loopback=800kbps");
  ck_assert(n.latency == 0);
  ck_assert(n.l2_bw == 2.0 * 1024 * 1024 * 1024);
  ck_assert(n.l1_bw == 3.0 * 1024 * 1024);
  ck_assert(n.loopback_bw == 100e3);
  n = parse_ok("percs:4,4,1/lat=0.25s,l1=.5MBps");
  ck_assert(n.latency == 0.25);
  ck_assert(n.l1_bw == 0.5e6);
  n = parse_ok("dragonfly:3,2,1,2/bw=1GBps,term=3GBps");
  ck_assert(n.l1_bw == 1e9 && n.l2_bw == 1e9 && n.term_bw == 3e9);
  n = parse_ok("dragonfly:3,2,1,2/term=3GBps,bw=1GBps"); /* bw first, whatever the order */
  ck_assert(n.l1_bw == 1e9 && n.l2_bw == 1e9 && n.term_bw == 3e9);
}
END_TEST

START_TEST(test_largest_p)
{
  cs_net n = parse_ok("percs:2147483647,1,1");
  ck_assert_int_eq(n.p, 2147483647);
  n = parse_ok("percs:1,1,2147483647");
  ck_assert_int_eq(n.p, 2147483647);
}
END_TEST

/* ---- parser: rejected ---- */

static const struct {
  const char *spec, *needle;
} bad_specs[] = {
    {"", "empty network spec"},
    {"percs", "has no ':'"},
    {"torus:4,4,4", "unknown network kind 'torus'"},
    {"PERCS:4,4,4", "unknown network kind 'PERCS'"},
    {"percs:4,4", "missing fields"},
    {"percs:4,4,4,4", "extra fields"},
    {"percs:", "missing fields"},
    {"percs:4,0,4", "NPS must be at least 1"},
    {"percs:0,4,4", "SN must be at least 1"},
    {"percs:4,4,0", "CPN must be at least 1"},
    {"percs:4,-1,4", "NPS = '-1' is not a positive integer"},
    {"percs:4,x,4", "NPS = 'x' is not a positive integer"},
    {"percs:4,4.5,4", "NPS = '4.5' is not a positive integer"},
    {"percs:4, 4,4", "NPS = ' 4' is not a positive integer"},
    {"percs:4,+4,4", "NPS = '+4' is not a positive integer"},
    {"percs:4,,4", "NPS is missing"},
    {"percs:99999999999999999999,1,1", "SN = 99999999999999999999 is too large"},
    {"percs:2147483648,1,1", "SN = 2147483648 is too large"},
    {"percs:65536,256,256", "exceeds 2^31-1"},
    {"percs:1024,1024,2048", "exceeds 2^31-1"},
    {"dragonfly:2147483647,2147483647,1,1", "exceeds 2^31-1"},
    {"dragonfly:10,2,2,1", "cannot connect every pair of groups"},
    {"dragonfly:4,2,2", "missing fields"},
    {"dragonfly:4,2,2,1,1,1", "extra fields"},
    {"dragonfly:4,2,0,1", "H must be at least 1"},
    {"dragonfly:4,2,2,1,0", "C must be at least 1"},
    {"dragonfly:4,a,2,1", "A = 'a' is not a positive integer"},
    {"percs:4,4,4/", "empty parameter list"},
    {"percs:4,4,4/foo=1", "unknown link parameter 'foo'"},
    {"percs:4,4,4/l1", "'l1' is not key=value"},
    {"percs:4,4,4/=5", "'=5' is not key=value"},
    {"percs:4,4,4/l1=", "l1 has no value"},
    {"percs:4,4,4/l1=0GBps", "bandwidth must be positive"},
    {"percs:4,4,4/l1=0", "bandwidth must be positive"},
    {"percs:4,4,4/l1=-5GBps", "l1: '-5GBps' is not a non-negative number"},
    {"percs:4,4,4/lat=-1ns", "lat: '-1ns' is not a non-negative number"},
    {"percs:4,4,4/l1=10XBps", "unknown unit 'XBps'"},
    {"percs:4,4,4/lat=5parsecs", "unknown unit 'parsecs'"},
    {"percs:4,4,4/lat=1e", "unknown unit 'e'"},
    {"percs:4,4,4/l1=1e999GBps", "out of range"},
    {"percs:4,4,4/l1=1e300TBps", "out of range"},
    {"percs:4,4,4/l1=nan", "is not a non-negative number"},
    {"percs:4,4,4/l1=inf", "is not a non-negative number"},
    {"percs:4,4,4/l1=0x10", "unknown unit 'x10'"},
    {"percs:4,4,4/l1=1GBps,l1=2GBps", "'l1' given twice"},
    {"percs:4,4,4/term=1GBps", "applies to dragonfly only"},
    {"percs:4,4,4/l1=1GBps,", "'' is not key=value"},
    {"percs:4,4,4/lat=2e9s", "out of range"},
    {"percs:4,4,4/lat=1e300ms", "out of range"},
};

START_TEST(test_rejects_with_reason)
{
  const char *spec = bad_specs[_i].spec, *needle = bad_specs[_i].needle;
  cs_net n;
  memset(&n, 0x5a, sizeof n);
  cs_net before = n;
  GError *err = NULL;
  ck_assert_msg(!cs_net_parse(spec, &n, &err), "'%s' accepted", spec);
  ck_assert_ptr_nonnull(err);
  ck_assert_msg(err->domain == CS_INPUT_ERROR, "'%s': wrong error domain", spec);
  ck_assert_msg(strstr(err->message, needle), "'%s': message \"%s\" does not say \"%s\"", spec, err->message, needle);
  ck_assert_msg(memcmp(&n, &before, sizeof n) == 0, "'%s': output changed on failure", spec);
  g_error_free(err);
}
END_TEST

/* ---- canonical description ---- */

static void same_net(const cs_net *a, const cs_net *b, const char *what)
{
  EXPECT(a->shape == b->shape && a->sn == b->sn && a->nps == b->nps && a->cpn == b->cpn && a->p == b->p &&
             a->df_g == b->df_g && a->df_a == b->df_a && a->df_h == b->df_h && a->df_p == b->df_p &&
             a->l1_bw == b->l1_bw && a->l2_bw == b->l2_bw && a->term_bw == b->term_bw &&
             a->latency == b->latency && a->loopback_bw == b->loopback_bw && a->loopback_lat == b->loopback_lat,
         "%s does not read back to the same net", what);
}

START_TEST(test_describe_canonical)
{
  static const char *cases[][2] = {
      {"percs:64,16,16", "percs:64,16,16"},
      {"dragonfly:33,8,4,4", "dragonfly:33,8,4,4,1"},
      {"dragonfly:5,2,2,3,2", "dragonfly:5,2,2,3,2"},
      {"percs:4,4,1/lat=100ns,l1=10GBps", "percs:4,4,1"},
      {"percs:4,4,1/bw=80Gbps", "percs:4,4,1"},
      {"percs:4,4,1/l2=2.5GBps,lat=1.5us", "percs:4,4,1/l2=2.5GBps,lat=1.5us"},
      {"percs:4,4,1/lat=2ms,l1=12345", "percs:4,4,1/l1=12.345kBps,lat=2ms"},
      {"percs:4,4,1/loopback_lat=1s,loopback=1TBps", "percs:4,4,1/loopback=1000GBps,loopback_lat=1s"},
      {"dragonfly:3,2,1,2/term=5GBps", "dragonfly:3,2,1,2,1/term=5GBps"},
      {"dragonfly:3,2,1,2/bw=5GBps", "dragonfly:3,2,1,2,1/l1=5GBps,l2=5GBps,term=5GBps"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    cs_net n = parse_ok(cases[i][0]);
    char *d = cs_net_describe(&n);
    EXPECT(strcmp(d, cases[i][1]) == 0, "describe(%s) = %s, expected %s", cases[i][0], d, cases[i][1]);
    cs_net back = parse_ok(d);
    same_net(&n, &back, d);
    g_free(d);
  }
}
END_TEST

START_TEST(test_describe_round_trips_odd_values)
{
  static const char *values[] = {"1", "3", "1.1", "0.1", "123456789.123", "1e-7", "3.3e-9", "7e-13", "2.5e300",
                                 "0.3", "1234.5678", "9.999999999999999e22"};
  static const char *bw_units[] = {"Bps", "kBps", "GBps", "GiBps", "Mbps", "TBps"};
  static const char *lat_units[] = {"s", "ms", "us", "ns", "ps"};
  for (size_t v = 0; v < G_N_ELEMENTS(values); v++) {
    for (size_t u = 0; u < G_N_ELEMENTS(bw_units); u++) {
      char *spec = g_strdup_printf("dragonfly:3,2,1,2/term=%s%s,loopback=%s%s", values[v], bw_units[u],
                                   values[v], bw_units[u]);
      cs_net n;
      GError *err = NULL;
      if (cs_net_parse(spec, &n, &err)) {
        char *d = cs_net_describe(&n);
        cs_net back = parse_ok(d);
        same_net(&n, &back, d);
        g_free(d);
      } else {
        g_error_free(err); /* out of range: fine */
      }
      g_free(spec);
    }
    for (size_t u = 0; u < G_N_ELEMENTS(lat_units); u++) {
      char *spec = g_strdup_printf("percs:2,2,2/lat=%s%s,loopback_lat=%s%s", values[v], lat_units[u], values[v],
                                   lat_units[u]);
      cs_net n;
      GError *err = NULL;
      if (cs_net_parse(spec, &n, &err)) {
        char *d = cs_net_describe(&n);
        cs_net back = parse_ok(d);
        same_net(&n, &back, d);
        g_free(d);
      } else {
        EXPECT(strstr(err->message, "out of range"), "%s: %s", spec, err->message); /* above 1e9 s */
        g_error_free(err);
      }
      g_free(spec);
    }
  }
}
END_TEST

/* ---- wiring ---- */

START_TEST(test_percs_gateway_rule)
{
  static const char *specs[] = {"percs:64,16,16", "percs:8,3,1", "percs:3,8,2", "percs:5,5,1", "percs:2,1,1"};
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    cs_net n = parse_ok(specs[i]);
    for (int64_t a = 0; a < n.sn; a++) {
      for (int64_t b = 0; b < n.sn; b++) {
        if (a == b) {
          ck_assert_int_eq(cs_net_gateway(&n, a, b), -1);
          continue;
        }
        EXPECT(cs_net_gateway(&n, a, b) == b % n.nps, "%s: gateway(%lld, %lld) = %lld", specs[i], (long long)a,
               (long long)b, (long long)cs_net_gateway(&n, a, b));
        EXPECT(cs_net_landing(&n, a, b) == a % n.nps, "%s: landing(%lld, %lld) = %lld", specs[i], (long long)a,
               (long long)b, (long long)cs_net_landing(&n, a, b));
      }
    }
    ck_assert_int_eq(cs_net_gateway(&n, -1, 0), -1);
    ck_assert_int_eq(cs_net_gateway(&n, 0, n.sn), -1);
    ck_assert_int_eq(cs_net_df_gateway_router(&n, 0, 1 % n.sn), -1); /* PERCS has no routers */
  }
}
END_TEST

START_TEST(test_dragonfly_cables)
{
  static const char *specs[] = {"dragonfly:3,2,1,2", "dragonfly:5,2,2,3", "dragonfly:9,4,2,2", "dragonfly:4,3,2,1",
                                "dragonfly:33,8,4,4", "dragonfly:2,1,1,1", "dragonfly:17,4,5,3"};
  for (size_t s = 0; s < G_N_ELEMENTS(specs); s++) {
    cs_net n = parse_ok(specs[s]);
    int64_t *ports = g_new0(int64_t, n.df_g * n.df_a); /* cables per router */
    for (int64_t a = 0; a < n.df_g; a++) {
      for (int64_t b = 0; b < n.df_g; b++) {
        if (a == b)
          continue;
        int64_t ra = cs_net_df_gateway_router(&n, a, b), rb = cs_net_df_landing_router(&n, a, b);
        EXPECT(ra >= 0 && ra < n.df_a && rb >= 0 && rb < n.df_a, "%s: routers %lld, %lld out of range", specs[s],
               (long long)ra, (long long)rb);
        /* the cable a -> b and b -> a join the same two routers */
        EXPECT(cs_net_df_gateway_router(&n, b, a) == rb && cs_net_df_landing_router(&n, b, a) == ra,
               "%s: cable %lld-%lld not the same both ways", specs[s], (long long)a, (long long)b);
        int64_t gw = cs_net_gateway(&n, a, b), land = cs_net_landing(&n, a, b);
        EXPECT(gw / n.df_p == ra && land / n.df_p == rb, "%s: gateway node %lld not on router %lld", specs[s],
               (long long)gw, (long long)ra);
        EXPECT(land == cs_net_gateway(&n, b, a), "%s: landing(%lld,%lld) != gateway(%lld,%lld)", specs[s],
               (long long)a, (long long)b, (long long)b, (long long)a);
        ports[a * n.df_a + ra]++;
      }
    }
    /* each group reaches G-1 others (once each, by the loop), each router uses at most H ports */
    for (int64_t i = 0; i < n.df_g * n.df_a; i++)
      EXPECT(ports[i] <= n.df_h, "%s: router %lld of group %lld has %lld global links, H = %lld", specs[s],
             (long long)(i % n.df_a), (long long)(i / n.df_a), (long long)ports[i], (long long)n.df_h);
    g_free(ports);
  }
}
END_TEST

/* ---- XML ---- */

typedef struct xml_seen {
  const cs_net *n;
  GHashTable *tier;      /* link id -> tier */
  GHashTable *zroutes;   /* "src>dst" -> "gw_src gw_dst link" (top level only) */
  GHashTable *routes;    /* "src>dst" -> link count */
  char *link, *zroute;   /* inside <link> / <zoneRoute> */
  GString *ctn;
  int depth;
  bool platform_41, doctype;
} xml_seen;

static const char *attr(const gchar **names, const gchar **values, const char *key)
{
  for (; *names; names++, values++)
    if (strcmp(*names, key) == 0)
      return *values;
  return NULL;
}

static void x_start(GMarkupParseContext *ctx, const gchar *el, const gchar **names, const gchar **values,
                    gpointer user, GError **err)
{
  (void)ctx;
  (void)err;
  xml_seen *s = user;
  s->depth++;
  if (strcmp(el, "platform") == 0) {
    const char *v = attr(names, values, "version");
    s->platform_41 = v && strcmp(v, "4.1") == 0;
  } else if (strcmp(el, "link") == 0) {
    s->link = g_strdup(attr(names, values, "id"));
    const char *pol = attr(names, values, "sharing_policy");
    ck_assert_ptr_nonnull(pol);
    ck_assert_msg(!g_hash_table_contains(s->tier, s->link), "link %s declared twice", s->link);
    g_hash_table_insert(s->tier, g_strdup(s->link), g_strdup("?"));
  } else if (strcmp(el, "prop") == 0 && s->link) {
    if (strcmp(attr(names, values, "id"), "tier") == 0)
      g_hash_table_insert(s->tier, g_strdup(s->link), g_strdup(attr(names, values, "value")));
  } else if (strcmp(el, "zoneRoute") == 0 || strcmp(el, "route") == 0) {
    ck_assert_str_eq(attr(names, values, "symmetrical"), "NO");
    s->zroute = g_strdup_printf("%s>%s", attr(names, values, "src"), attr(names, values, "dst"));
    s->ctn = g_string_new(NULL);
    if (strcmp(el, "zoneRoute") == 0)
      g_string_printf(s->ctn, "%s %s", attr(names, values, "gw_src"), attr(names, values, "gw_dst"));
  } else if (strcmp(el, "link_ctn") == 0 && s->ctn) {
    g_string_append_printf(s->ctn, " %s", attr(names, values, "id"));
  }
}

static void x_end(GMarkupParseContext *ctx, const gchar *el, gpointer user, GError **err)
{
  (void)ctx;
  (void)err;
  xml_seen *s = user;
  s->depth--;
  if (strcmp(el, "link") == 0) {
    g_clear_pointer(&s->link, g_free);
  } else if (strcmp(el, "zoneRoute") == 0 || strcmp(el, "route") == 0) {
    GHashTable *h = strcmp(el, "route") == 0 ? s->routes : s->zroutes;
    ck_assert_msg(!g_hash_table_contains(h, s->zroute), "two routes %s", s->zroute);
    g_hash_table_insert(h, s->zroute, g_string_free(s->ctn, FALSE));
    s->zroute = NULL;
    s->ctn = NULL;
  }
}

static void x_passthrough(GMarkupParseContext *ctx, const gchar *text, gsize len, gpointer user, GError **err)
{
  (void)ctx;
  (void)err;
  xml_seen *s = user;
  if (len > 9 && strncmp(text, "<!DOCTYPE", 9) == 0)
    s->doctype = true;
}

static void read_xml(const char *path, xml_seen *s)
{
  gchar *text;
  gsize len;
  ck_assert(g_file_get_contents(path, &text, &len, NULL));
  s->tier = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  s->zroutes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  s->routes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  GMarkupParser parser = {x_start, x_end, NULL, x_passthrough, NULL};
  GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, 0, s, NULL);
  GError *err = NULL;
  bool ok = g_markup_parse_context_parse(ctx, text, (gssize)len, &err) && g_markup_parse_context_end_parse(ctx, &err);
  ck_assert_msg(ok, "%s is not well formed: %s", path, err ? err->message : "?");
  ck_assert_int_eq(s->depth, 0);
  ck_assert(s->platform_41);
  ck_assert(s->doctype);
  g_markup_parse_context_free(ctx);
  g_free(text);
}

static void free_xml(xml_seen *s)
{
  g_hash_table_destroy(s->tier);
  g_hash_table_destroy(s->zroutes);
  g_hash_table_destroy(s->routes);
}

static int64_t count_tier(GHashTable *tier, const char *t)
{
  GHashTableIter it;
  gpointer k, v;
  int64_t c = 0;
  g_hash_table_iter_init(&it, tier);
  while (g_hash_table_iter_next(&it, &k, &v))
    c += strcmp(v, t) == 0;
  return c;
}

static char *tmp_dir(void)
{
  char *dir = g_dir_make_tmp("check-net-XXXXXX", NULL);
  ck_assert_ptr_nonnull(dir);
  return dir;
}

/* Entries of dir other than `keep`. */
static int strays(const char *dir, const char *keep)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  int n = 0;
  for (const char *e; (e = g_dir_read_name(d));)
    n += strcmp(e, keep) != 0;
  g_dir_close(d);
  return n;
}

static void write_and_read(const char *spec, xml_seen *s, cs_net *n)
{
  *n = parse_ok(spec);
  char *dir = tmp_dir(), *path = g_build_filename(dir, "p.xml", NULL);
  GError *err = NULL;
  ck_assert_msg(cs_net_write_xml(n, path, &err), "%s", err ? err->message : "?");
  ck_assert_int_eq(strays(dir, "p.xml"), 0);
  memset(s, 0, sizeof *s);
  s->n = n;
  read_xml(path, s);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
}

static void check_counts(const char *spec, xml_seen *s, const cs_net *n)
{
  cs_net_link_counts c = cs_net_count_links(n);
  EXPECT(count_tier(s->tier, "L1") == c.l1, "%s: %lld L1 links", spec, (long long)count_tier(s->tier, "L1"));
  EXPECT(count_tier(s->tier, "L2") == c.l2, "%s: %lld L2 links", spec, (long long)count_tier(s->tier, "L2"));
  EXPECT(count_tier(s->tier, "T") == c.term, "%s: %lld T links", spec, (long long)count_tier(s->tier, "T"));
  EXPECT(count_tier(s->tier, "intra") == c.loopback, "%s: loopbacks", spec);
  EXPECT(count_tier(s->tier, "?") == 0, "%s: a link has no tier", spec);
}

START_TEST(test_xml_percs)
{
  static const char *specs[] = {"percs:4,4,1", "percs:8,3,1", "percs:64,16,16", "percs:1,1,1", "percs:2,1,3"};
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    xml_seen s;
    cs_net n;
    write_and_read(specs[i], &s, &n);
    check_counts(specs[i], &s, &n);
    /* one route per ordered pair of a supernode's nodes, plus node -> itself */
    EXPECT((int64_t)g_hash_table_size(s.routes) == n.sn * n.nps * n.nps, "%s: %u routes", specs[i],
           g_hash_table_size(s.routes));
    EXPECT((int64_t)g_hash_table_size(s.zroutes) == n.sn * (n.sn - 1), "%s: %u zoneRoutes", specs[i],
           g_hash_table_size(s.zroutes));
    for (int64_t a = 0; a < n.sn; a++) {
      for (int64_t b = 0; b < n.sn; b++) {
        if (a == b)
          continue;
        char key[64], *want;
        snprintf(key, sizeof key, "sn-%lld>sn-%lld", (long long)a, (long long)b);
        want = g_strdup_printf("node-%lld node-%lld L2-s%lld-s%lld", (long long)(a * n.nps + b % n.nps),
                               (long long)(b * n.nps + a % n.nps), (long long)a, (long long)b);
        const char *got = g_hash_table_lookup(s.zroutes, key);
        EXPECT(got && strcmp(got, want) == 0, "%s: zoneRoute %s is '%s', expected '%s'", specs[i], key,
               got ? got : "(none)", want);
        g_free(want);
      }
    }
    free_xml(&s);
  }
}
END_TEST

START_TEST(test_xml_dragonfly)
{
  static const char *specs[] = {"dragonfly:3,2,1,2", "dragonfly:5,2,2,3,2", "dragonfly:9,4,2,2", "dragonfly:1,2,1,2"};
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    xml_seen s;
    cs_net n;
    write_and_read(specs[i], &s, &n);
    check_counts(specs[i], &s, &n);
    /* every pair of groups joined once, in each direction, between the gateway and landing routers */
    EXPECT((int64_t)count_tier(s.tier, "L2") == n.df_g * (n.df_g - 1), "%s: L2 links", specs[i]);
    for (int64_t a = 0; a < n.df_g; a++) {
      for (int64_t b = 0; b < n.df_g; b++) {
        if (a == b)
          continue;
        char key[64], *want;
        snprintf(key, sizeof key, "grp-%lld>grp-%lld", (long long)a, (long long)b);
        want = g_strdup_printf("router-%lld-%lld router-%lld-%lld L2-g%lld-g%lld", (long long)a,
                               (long long)cs_net_df_gateway_router(&n, a, b), (long long)b,
                               (long long)cs_net_df_landing_router(&n, a, b), (long long)a, (long long)b);
        const char *got = g_hash_table_lookup(s.zroutes, key);
        EXPECT(got && strcmp(got, want) == 0, "%s: zoneRoute %s is '%s', expected '%s'", specs[i], key,
               got ? got : "(none)", want);
        g_free(want);
      }
    }
    free_xml(&s);
  }
}
END_TEST

START_TEST(test_xml_replaces_atomically)
{
  cs_net n = parse_ok("percs:4,4,1");
  char *dir = tmp_dir(), *path = g_build_filename(dir, "p.xml", NULL);
  ck_assert(g_file_set_contents(path, "old", -1, NULL));
  GError *err = NULL;
  ck_assert(cs_net_write_xml(&n, path, &err));
  ck_assert_int_eq(strays(dir, "p.xml"), 0);
  gchar *text;
  ck_assert(g_file_get_contents(path, &text, NULL, NULL));
  ck_assert(g_str_has_prefix(text, "<?xml"));
  ck_assert(g_str_has_suffix(text, "</platform>\n"));
  g_free(text);
  GStatBuf st;
  ck_assert_int_eq(g_stat(path, &st), 0);
  mode_t mask = umask(0);
  umask(mask);
  ck_assert_int_eq(st.st_mode & 0777, 0666 & ~mask); /* as for a new file, not mkstemp's 0600 */
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
}
END_TEST

/* A write that fails half-way (file size limit) leaves the old file and no
 * temporary file behind.  Runs in Check's forked child, so the limit and the
 * ignored SIGXFSZ do not leak. */
START_TEST(test_xml_failed_write_keeps_old_file)
{
  cs_net n = parse_ok("percs:16,8,1");
  char *dir = tmp_dir(), *path = g_build_filename(dir, "p.xml", NULL);
  ck_assert(g_file_set_contents(path, "old", -1, NULL));
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit rl = {20000, 20000};
  ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
  GError *err = NULL;
  ck_assert(!cs_net_write_xml(&n, path, &err));
  ck_assert_ptr_nonnull(err);
  ck_assert(err->domain == CS_INPUT_ERROR);
  ck_assert_msg(strstr(err->message, "cannot write"), "%s", err->message);
  g_error_free(err);
  gchar *text;
  ck_assert(g_file_get_contents(path, &text, NULL, NULL));
  ck_assert_str_eq(text, "old");
  g_free(text);
  ck_assert_int_eq(strays(dir, "p.xml"), 0);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
}
END_TEST

START_TEST(test_xml_unwritable_place)
{
  cs_net n = parse_ok("percs:2,2,1");
  GError *err = NULL;
  ck_assert(!cs_net_write_xml(&n, "/nonexistent-dir-of-collsim/p.xml", &err));
  ck_assert(err->domain == CS_INPUT_ERROR);
  ck_assert_msg(strstr(err->message, "/nonexistent-dir-of-collsim/p.xml"), "%s", err->message);
  g_error_free(err);
}
END_TEST

START_TEST(test_xml_refuses_huge)
{
  cs_net n = parse_ok("percs:100000,1,1"); /* 10^10 L2 links */
  GError *err = NULL;
  ck_assert(!cs_net_write_xml(&n, "/nonexistent-dir-of-collsim/p.xml", &err));
  ck_assert(err->domain == CS_INPUT_ERROR);
  ck_assert_msg(strstr(err->message, "too large"), "%s", err->message);
  g_error_free(err);
}
END_TEST

static Suite *net_suite(void)
{
  Suite *s = suite_create("net");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, test_percs_defaults);
  tcase_add_test(tc, test_dragonfly_shapes);
  tcase_add_test(tc, test_link_parameters);
  tcase_add_test(tc, test_largest_p);
  tcase_add_loop_test(tc, test_rejects_with_reason, 0, (int)G_N_ELEMENTS(bad_specs));
  tcase_add_test(tc, test_describe_canonical);
  tcase_add_test(tc, test_describe_round_trips_odd_values);
  suite_add_tcase(s, tc);
  tc = tcase_create("wiring");
  tcase_add_test(tc, test_percs_gateway_rule);
  tcase_add_test(tc, test_dragonfly_cables);
  suite_add_tcase(s, tc);
  tc = tcase_create("xml");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_xml_percs);
  tcase_add_test(tc, test_xml_dragonfly);
  tcase_add_test(tc, test_xml_replaces_atomically);
  tcase_add_test(tc, test_xml_failed_write_keeps_old_file);
  tcase_add_test(tc, test_xml_unwritable_place);
  tcase_add_test(tc, test_xml_refuses_huge);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(net_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
