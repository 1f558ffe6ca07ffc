/* Tests of platforms/xml_validate.c, the check of a user's SimGrid platform
 * file before SimGrid loads it (issue 25: such files made SimGrid abort):
 *  - each class of bad file is refused with one line "PATH: <element
 *    id=..>: problem" naming the element and the problem: no route (Full,
 *    Floyd, Dijkstra one way, zones without a zoneRoute, a route without
 *    links, a gateway behind a missing zone route, a zone route's gateway
 *    outside its zone, a cabinet outside a Cluster zone, two zones directly
 *    in <platform>, a route in a None zone, a route without an attribute
 *    the DTD requires), negative latency, zero
 *    bandwidth, speed nan, infinite or unit-less-but-huge values, unknown
 *    units, malformed XML, wrong root, no host, bad radical, core 0;
 *  - valid files pass: SimGrid's kinds of platform (clusters, cabinets,
 *    Vivaldi peers, fat tree, dragonfly, Floyd, Dijkstra, nested zones,
 *    pstates, unit-less values) and the XML of every registered family;
 *    the route verdicts of the Full, Floyd, Dijkstra, nested-zone, cluster,
 *    cabinet, Vivaldi and fat-tree platforms were checked against SimGrid
 *    3.32 by sending a message between every two hosts (the Wifi one only
 *    has to read: SimGrid sends over WIFI only once host rates are set
 *    through its API);
 *  - only the hosts a run uses need routes, taken in the engine's order
 *    (cs_natural_cmp), also through --platform file:PATH and resolve;
 *  - values read with SimGrid's units (the factors SimGrid 3.32 gives).
 */
#include "platforms/platform.h"
#include "sim/contracts/natural_order.h"
#include "platforms/xml_validate.h"
#include "sim/contracts/errors.h"
#include "sim/engine/sg_engine.h"
#include "tests/lib/platform_specs.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEAD "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
#define PLATFORM(body) HEAD "<platform version=\"4.1\">\n" body "\n</platform>\n"
#define LINK "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>"
#define ROUTE(a, b) "<route src=\"" a "\" dst=\"" b "\"><link_ctn id=\"l\"/></route>"
/* Four hosts node-0 .. node-3 in a Full zone with every route. */
#define FOUR(host0, link)                                                                                          \
  PLATFORM("<zone id=\"z\" routing=\"Full\">" host0 "<host id=\"node-1\" speed=\"1Gf\"/>"                         \
           "<host id=\"node-2\" speed=\"1Gf\"/><host id=\"node-3\" speed=\"1Gf\"/>" link ROUTE("node-0", "node-1") \
               ROUTE("node-0", "node-2") ROUTE("node-0", "node-3") ROUTE("node-1", "node-2")                       \
                   ROUTE("node-1", "node-3") ROUTE("node-2", "node-3") "</zone>")
#define HOST0 "<host id=\"node-0\" speed=\"1Gf\"/>"

#define NESTED(inner_a, top_routes)                                                                                \
  PLATFORM("<zone id=\"top\" routing=\"Full\">"                                                                    \
           "<zone id=\"A\" routing=\"Full\"><host id=\"a1\" speed=\"1Gf\"/><host id=\"a2\" speed=\"1Gf\"/>"        \
           "<router id=\"ga\"/>" LINK inner_a "</zone>"                                                            \
           "<zone id=\"B\" routing=\"Full\"><host id=\"b1\" speed=\"1Gf\"/><router id=\"gb\"/>" ROUTE("b1", "gb")  \
           "</zone>" top_routes "</zone>")
#define A_ROUTES ROUTE("a1", "ga") ROUTE("a2", "ga") ROUTE("a1", "a2")
#define ZONE_ROUTE "<zoneRoute src=\"A\" dst=\"B\" gw_src=\"ga\" gw_dst=\"gb\"><link_ctn id=\"l\"/></zoneRoute>"

#define GRAPH(routing, r1, r2)                                                                                     \
  PLATFORM("<zone id=\"z\" routing=\"" routing "\"><host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"   \
           "<host id=\"c\" speed=\"1Gf\"/><router id=\"r\"/>" LINK r1 r2 ROUTE("r", "b") "</zone>")

typedef struct bad_file {
  const char *xml;
  const char *element; /* the element the message names */
  const char *problem; /* and the problem */
} bad_file;

static const bad_file BAD[] = {
    {PLATFORM("<zone id=\"z\" routing=\"Full\">" HOST0 "<host id=\"node-1\" speed=\"1Gf\"/>" LINK "</zone>"),
     "<host id=\"node-0\">", "no route to <host id=\"node-1\"> (<zone id=\"z\" routing=\"Full\"> has no route"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"1GBps\" latency=\"-1us\"/>"), "<link id=\"l\">",
     "latency=\"-1us\" is negative"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"0Bps\" latency=\"1us\"/>"), "<link id=\"l\">",
     "bandwidth=\"0Bps\" must be positive"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"-5MBps\" latency=\"1us\"/>"), "<link id=\"l\">", "must be positive"},
    {FOUR("<host id=\"node-0\" speed=\"nan\"/>", LINK), "<host id=\"node-0\">", "speed=\"nan\" is not a finite"},
    {FOUR("<host id=\"node-0\" speed=\"1Gf,nanf\"/>", LINK), "<host id=\"node-0\">", "is not a finite"},
    {FOUR("<host id=\"node-0\" speed=\"0f\"/>", LINK), "<host id=\"node-0\">", "speed=\"0f\" must be positive"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"1e300YBps\" latency=\"1us\"/>"), "<link id=\"l\">", "not a finite"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"inf\" latency=\"1us\"/>"), "<link id=\"l\">", "not a finite"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1e400s\"/>"), "<link id=\"l\">", "out of range"},
    {FOUR("<host id=\"node-0\" speed=\"1Kf\"/>", LINK), "<host id=\"node-0\">", "unknown unit 'Kf'"},
    {FOUR("<host id=\"node-0\" speed=\"1Gflops\"/>", LINK), "<host id=\"node-0\">", "unknown unit 'Gflops'"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"1GB\" latency=\"1us\"/>"), "<link id=\"l\">", "unknown unit 'GB'"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1sec\"/>"), "<link id=\"l\">", "unknown unit 'sec'"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"fast\" latency=\"1us\"/>"), "<link id=\"l\">", "not a number"},
    /* empty: SimGrid cannot parse it either (a fuzzed file once crashed the reader here) */
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"1GBps\" latency=\"\"/>"), "<link id=\"l\">", "latency=\"\": not a number"},
    {FOUR("<host id=\"node-0\" speed=\"\"/>", LINK), "<host id=\"node-0\">", "speed=\"\": not a number"},
    {FOUR(HOST0, "<link id=\"l\" bandwidth=\"1GBps,2GBps\" latency=\"1us\"/>"), "<link id=\"l\">",
     "one value expected"},
    {FOUR("<host id=\"node-0\" speed=\"1Gf\" core=\"0\"/>", LINK), "<host id=\"node-0\">", "core=\"0\" must be"},
    {PLATFORM("<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\">"), "", "malformed XML"},
    {HEAD "<platform version=\"4.1\"><zone id=\"z\"></platform>", "", "malformed XML"},
    {HEAD "<plat version=\"4.1\"/>", "<plat>", "the root element must be <platform>"},
    {PLATFORM("<zone id=\"z\" routing=\"Full\">" LINK "</zone>"), "<platform>", "declares no host"},
    {PLATFORM("<cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"0-x\" speed=\"1Gf\" bw=\"1GBps\" lat=\"0\"/>"),
     "<cluster id=\"c\">", "radical=\"0-x\""},
    {PLATFORM("<cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" "
              "lat=\"-2ms\"/>"),
     "<cluster id=\"c\">", "lat=\"-2ms\" is negative"},
    {PLATFORM("<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/><host id=\"a\" speed=\"1Gf\"/></zone>"),
     "<host id=\"a\">", "a second host"},
    /* a route without links: SimGrid finds "no connecting path" */
    {PLATFORM("<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
              "<route src=\"a\" dst=\"b\"></route></zone>"),
     "<host id=\"a\">", "has only a route without links from \"a\" to \"b\""},
    {GRAPH("Floyd", ROUTE("a", "r"), ""), "<host id=\"a\">",
     "<zone id=\"z\" routing=\"Floyd\"> has no path of routes from \"a\" to \"c\""},
    {GRAPH("Dijkstra", "<route src=\"a\" dst=\"r\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>",
           ROUTE("c", "r")),
     "<host id=\"b\">", "no path of routes from \"b\" to \"a\""},
    {NESTED(A_ROUTES, ""), "<host id=\"a1\">", "<zone id=\"top\" routing=\"Full\"> has no route from \"A\" to \"B\""},
    /* the gateway ga sits in a zone of its own that A does not route to: SimGrid's "Bad gateways" */
    {PLATFORM("<zone id=\"top\" routing=\"Full\"><zone id=\"A\" routing=\"Full\">"
              "<zone id=\"A1\" routing=\"Full\"><host id=\"a1\" speed=\"1Gf\"/></zone>"
              "<zone id=\"A2\" routing=\"Full\"><router id=\"ga\"/></zone></zone>"
              "<zone id=\"B\" routing=\"Full\"><host id=\"b1\" speed=\"1Gf\"/></zone>" LINK
              "<zoneRoute src=\"A\" dst=\"B\" gw_src=\"ga\" gw_dst=\"b1\"><link_ctn id=\"l\"/></zoneRoute></zone>"),
     "<host id=\"a1\">", "<zone id=\"A\" routing=\"Full\"> has no route from \"A1\" to \"A2\""},
    /* gateways each in the other's zone: SimGrid 3.32 refuses the file as it loads it ("Invalid
       NetzoneRoute"; a fuzzer found the route check passing it and the router finding no route) */
    {PLATFORM("<zone id=\"w\" routing=\"Full\">"
              "<cluster id=\"c1\" prefix=\"c1-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"125MBps\" "
              "lat=\"50us\"/><cluster id=\"c2\" prefix=\"c2-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" "
              "bw=\"125MBps\" lat=\"50us\"/>" LINK "<zoneRoute src=\"c2\" dst=\"c1\" gw_src=\"c1-c1_router\" "
              "gw_dst=\"c2-c2_router\"><link_ctn id=\"l\"/></zoneRoute></zone>"),
     "<zoneRoute>", "from \"c2\" to \"c1\": gw_src=\"c1-c1_router\" lies in zone \"c1\", not in \"c2\""},
    {NESTED(A_ROUTES, "<zoneRoute src=\"A\" dst=\"B\" gw_src=\"ga\" gw_dst=\"a1\"><link_ctn id=\"l\"/></zoneRoute>"),
     "<zoneRoute>", "gw_dst=\"a1\" lies in zone \"A\", not in \"B\""},
    /* a cabinet outside a Cluster zone: SimGrid 3.32 makes no host of it (a fuzzer found the reader
       making three hosts the router had no route between) */
    {PLATFORM("<cabinet id=\"cab\" prefix=\"cab-\" suffix=\".me\" radical=\"1-3\" speed=\"1Gf\" bw=\"125MBps\" "
              "lat=\"100us\"/>"),
     "<cabinet id=\"cab\">", "allowed only in a <zone routing=\"Cluster\"> (SimGrid 3.32 makes no host of it directly"},
    {PLATFORM("<zone id=\"z\" routing=\"Full\"><cabinet id=\"cab\" prefix=\"cab-\" suffix=\".me\" radical=\"1-3\" "
              "speed=\"1Gf\" bw=\"125MBps\" lat=\"100us\"/></zone>"),
     "<cabinet id=\"cab\">", "makes no host of it in another zone"},
    /* two zones directly in <platform>: SimGrid 3.32 fails to create the second one's hosts ("Invalid CPU
       model"; a fuzzer found two clusters there read as connected, with no route between them) */
    {PLATFORM("<zone id=\"a\" routing=\"Full\"><host id=\"h1\" speed=\"1Gf\"/></zone>"
              "<zone id=\"b\" routing=\"Full\"><host id=\"h2\" speed=\"1Gf\"/></zone>"),
     "<zone id=\"b\">", "a second zone directly in <platform>"},
    {PLATFORM("<cluster id=\"c1\" prefix=\"c1-\" suffix=\"\" radical=\"1-3\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\"/>"
              "<cluster id=\"c2\" prefix=\"c2-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\"/>"),
     "<cluster id=\"c2\">", "a second zone directly in <platform>"},
    /* routes SimGrid 3.32 refuses as it reads them (a fuzzer found a None zone's zoneRoute without gw_dst
       read as a route): a route in a None zone, attributes the DTD requires */
    {PLATFORM("<zone id=\"w\" routing=\"None\"><zone id=\"A\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>"
              "<zone id=\"B\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></zone>" LINK
              "<zoneRoute src=\"A\" dst=\"B\" gw_src=\"a\" gw_dst=\"b\"><link_ctn id=\"l\"/></zoneRoute></zone>"),
     "<zoneRoute>", "a <zone routing=\"None\"> takes no route but bypass routes"},
    {NESTED(A_ROUTES, "<zoneRoute src=\"A\" dst=\"B\" gw_src=\"ga\"><link_ctn id=\"l\"/></zoneRoute>"), "<zoneRoute>",
     "gw_dst=\"...\" is missing (SimGrid's DTD requires it)"},
    {PLATFORM("<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>" LINK
              "<route src=\"a\"><link_ctn id=\"l\"/></route></zone>"),
     "<route>", "dst=\"...\" is missing"},
    /* SimGrid's DTD wants hosts, links and routes inside a zone */
    {PLATFORM(HOST0 "<host id=\"node-1\" speed=\"1Gf\"/>"), "<host id=\"node-0\">", "must be inside a <zone>"},
    {PLATFORM("<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>"), "<link id=\"l\">", "must be inside a <zone>"},
    /* and a peer only in a Vivaldi zone */
    {PLATFORM("<zone id=\"z\" routing=\"Full\"><peer id=\"p1\" coordinates=\"1 2 3\" speed=\"1Gf\" bw_in=\"1GBps\" "
              "bw_out=\"1GBps\" lat=\"1us\"/></zone>"), "<peer id=\"p1\">", "only in a <zone routing=\"Vivaldi\">"},
};

static const char *const GOOD[] = {
    FOUR(HOST0, LINK),
    FOUR("<host id=\"node-0\" speed=\"100.0Mf,50.0Mf,20.0Mf\" core=\"4\"/>", "<link id=\"l\" bandwidth=\"10kBps\" "
                                                                             "latency=\"0\"/>"),
    FOUR("<host id=\"node-0\" speed=\"1\"/>", "<link id=\"l\" bandwidth=\" 125000000 \" latency=\"0.5\"/>"),
    FOUR("<host id=\"node-0\" speed=\"1.5e3zetaflops\"/>", "<link id=\"l\" bandwidth=\"1Yibps\" latency=\"1w\"/>"),
    NESTED(A_ROUTES, ZONE_ROUTE),
    NESTED(ROUTE("a1", "ga") ROUTE("a1", "a2"), ZONE_ROUTE), /* a2 has no way to ga: it adds nothing, SimGrid
                                                                accepts it */
    GRAPH("Floyd", ROUTE("a", "r"), ROUTE("c", "r")),
    GRAPH("Dijkstra", ROUTE("a", "r"), ROUTE("c", "r")),
    GRAPH("DijkstraCache", ROUTE("a", "r"), ROUTE("r", "c")),
    PLATFORM("<zone id=\"c\" routing=\"Cluster\">"
             "<cabinet id=\"cab1\" prefix=\"cab1-\" suffix=\".me\" radical=\"1-3\" speed=\"1Gf\" bw=\"125MBps\" "
             "lat=\"100us\"/>"
             "<cabinet id=\"cab2\" prefix=\"cab2-\" suffix=\".me\" radical=\"1-3\" speed=\"1Gf\" bw=\"125MBps\" "
             "lat=\"100us\"/>"
             "<backbone id=\"bb\" bandwidth=\"2.25GBps\" latency=\"500us\"/></zone>"),
    PLATFORM("<zone id=\"v\" routing=\"Vivaldi\">"
             "<peer id=\"p1\" coordinates=\"25.5 9.4 1.4\" speed=\"1.5Gf\" bw_in=\"100MBps\" bw_out=\"100MBps\" "
             "lat=\"500us\"/>"
             "<peer id=\"p2\" coordinates=\"12.8 14.4 6.4\" speed=\"1.5Gf\" bw_in=\"100MBps\" bw_out=\"100MBps\" "
             "lat=\"500us\"/></zone>"),
    PLATFORM("<cluster id=\"ft\" topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\" prefix=\"n-\" "
             "radical=\"0-15\" suffix=\"\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" limiter_link=\"1GBps\"/>"),
    PLATFORM("<zone id=\"w\" routing=\"Full\"><cluster id=\"df\" topology=\"DRAGONFLY\" "
             "topo_parameters=\"3,4;4,3;5,1;2\" prefix=\"n-\" radical=\"0-119\" suffix=\"\" speed=\"1Gf\" "
             "bw=\"125MBps\" lat=\"50us\" loopback_bw=\"100MBps\" loopback_lat=\"0\"/></zone>"),
    PLATFORM("<zone id=\"w\" routing=\"Full\">"
             "<cluster id=\"c1\" prefix=\"c1-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"125MBps\" "
             "lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"/>"
             "<cluster id=\"c2\" prefix=\"c2-\" suffix=\"\" radical=\"0-3,7\" speed=\"1Gf\" bw=\"125MBps\" "
             "lat=\"50us\"/>" LINK "<zoneRoute src=\"c1\" dst=\"c2\" gw_src=\"c1-c1_router\" gw_dst=\"c2-c2_router\">"
             "<link_ctn id=\"l\"/></zoneRoute></zone>"),
    PLATFORM("<zone id=\"world\" routing=\"Full\"><zone id=\"W\" routing=\"Wifi\">"
             "<prop id=\"access_point\" value=\"R\"/><host id=\"s1\" speed=\"100Mf\"/>"
             "<link id=\"AP1\" sharing_policy=\"WIFI\" bandwidth=\"54Mbps,36Mbps\" latency=\"0ms\"/>"
             "<router id=\"R\"/></zone></zone>"),
};

/* Reads xml as file "t.xml" and checks the routes of every host. */
static bool validate(const char *xml, GError **err)
{
  cs_xml_platform *x = cs_xml_platform_read("t.xml", xml, strlen(xml), err);
  bool ok = x && cs_xml_platform_check_routes(x, (size_t)-1, err);
  cs_xml_platform_free(x);
  return ok;
}

START_TEST(bad_files_refused)
{
  const bad_file *b = &BAD[_i];
  GError *err = NULL;
  ck_assert_msg(!validate(b->xml, &err), "accepted: %s", b->xml);
  ck_assert(err->domain == CS_INPUT_ERROR);
  char *where = g_strdup_printf("t.xml: %s", b->element);
  ck_assert_msg(g_str_has_prefix(err->message, where), "'%s' does not start with '%s'", err->message, where);
  ck_assert_msg(strstr(err->message, b->problem), "'%s' does not say '%s'", err->message, b->problem);
  ck_assert_msg(!strchr(err->message, '\n'), "more than one line: %s", err->message);
  g_free(where);
  g_error_free(err);
}
END_TEST

/* A FAT_TREE (TORUS, DRAGONFLY) cluster takes the first hosts of its
 * radical that its topology has room for, as SimGrid does: 4 x 2 = 8 of
 * 16 here (a fuzzer found the file counting 16 hosts, routing only 8). */
START_TEST(topology_takes_its_hosts)
{
  const char *xml = PLATFORM("<cluster id=\"ft\" topology=\"FAT_TREE\" topo_parameters=\"2;4,2;1,2;1,2\" "
                             "prefix=\"n-\" radical=\"0-15\" suffix=\"\" speed=\"2Gf\" bw=\"125MBps\" lat=\"50us\"/>");
  GError *err = NULL;
  cs_xml_platform *x = cs_xml_platform_read("t.xml", xml, strlen(xml), &err);
  ck_assert_msg(x, "%s", err ? err->message : "?");
  ck_assert_uint_eq(cs_xml_platform_host_count(x), 8);
  ck_assert(cs_xml_platform_check_routes(x, (size_t)-1, &err));
  cs_xml_platform_free(x);
}
END_TEST

START_TEST(good_files_pass)
{
  GError *err = NULL;
  ck_assert_msg(validate(GOOD[_i], &err), "%s\nrefused: %s", GOOD[_i], err ? err->message : "?");
}
END_TEST

/* The XML collsim writes for each family passes, and has the family's hosts. */
START_TEST(family_xml_passes)
{
  const char *spec = TEST_PLATFORMS[_i];
  GError *err = NULL;
  cs_platform *p = cs_platform_parse(spec, &err);
  ck_assert_msg(p && cs_platform_resolve(p, cs_platform_slots(p), &err), "%s: %s", spec, err ? err->message : "?");
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  ck_assert(p->family->write_xml(p, out));
  fclose(out);
  cs_xml_platform *x = cs_xml_platform_read(spec, text, len, &err);
  ck_assert_msg(x && cs_xml_platform_check_routes(x, (size_t)-1, &err), "%s: %s", spec, err ? err->message : "?");
  ck_assert_int_eq((int64_t)cs_xml_platform_host_count(x), p->nodes);
  for (int64_t i = 0; i < p->nodes; i++) {
    char *name = g_strdup_printf("node-%" G_GINT64_FORMAT, i);
    ck_assert_str_eq(cs_xml_platform_host(x, (size_t)i), name);
    g_free(name);
  }
  cs_xml_platform_free(x);
  free(text);
  cs_platform_free(p);
}
END_TEST

/* node-1 and node-2 joined, node-10 alone: in the engine's order node-1,
 * node-2, node-10, the first two hosts have their route, three do not. */
#define PARTIAL                                                                                                    \
  PLATFORM("<zone id=\"z\" routing=\"Full\"><host id=\"node-10\" speed=\"1Gf\"/><host id=\"node-1\" speed=\"1Gf\"/>" \
           "<host id=\"node-2\" speed=\"1Gf\"/>" LINK ROUTE("node-1", "node-2") "</zone>")

START_TEST(only_used_hosts_need_routes)
{
  GError *err = NULL;
  cs_xml_platform *x = cs_xml_platform_read("p.xml", PARTIAL, strlen(PARTIAL), &err);
  ck_assert(x != NULL);
  ck_assert_str_eq(cs_xml_platform_host(x, 0), "node-1");
  ck_assert_str_eq(cs_xml_platform_host(x, 1), "node-2");
  ck_assert_str_eq(cs_xml_platform_host(x, 2), "node-10");
  ck_assert(cs_xml_platform_check_routes(x, 0, &err));
  ck_assert(cs_xml_platform_check_routes(x, 2, &err));
  ck_assert(!cs_xml_platform_check_routes(x, 3, &err));
  ck_assert_msg(g_str_has_prefix(err->message, "p.xml: <host id=\"node-") && strstr(err->message, "no route to") &&
                    strstr(err->message, "\"node-10\""),
                "%s", err->message);
  g_clear_error(&err);
  ck_assert(cs_xml_platform_check_routes(x, 2, &err)); /* again: nothing kept from the last check */
  cs_xml_platform_free(x);
}
END_TEST

/* The same through --platform file:PATH: resolve checks the hosts n ranks use. */
START_TEST(resolve_checks_the_run)
{
  char *dir = g_dir_make_tmp("collsim-xml-XXXXXX", NULL);
  char *path = g_build_filename(dir, "p.xml", NULL);
  ck_assert(g_file_set_contents(path, PARTIAL, -1, NULL));
  char *spec = g_strdup_printf("file:%s", path);
  GError *err = NULL;
  cs_platform *p = cs_platform_parse(spec, &err);
  ck_assert_msg(p != NULL, "%s", err ? err->message : "?");
  ck_assert_int_eq(p->nodes, 3);
  p->cores = 2;
  ck_assert(cs_platform_resolve(p, 4, &err));  /* ranks 0-3 on node-1 and node-2 */
  ck_assert(!cs_platform_resolve(p, 5, &err)); /* rank 4 on node-10 */
  ck_assert(err->domain == CS_INPUT_ERROR && strstr(err->message, "no route to") && strstr(err->message, "node-10"));
  g_clear_error(&err);
  ck_assert(!cs_platform_resolve(p, 0, &err)); /* every host */
  g_clear_error(&err);
  cs_platform_free(p);
  g_unlink(path);
  g_rmdir(dir);
  g_free(spec);
  g_free(path);
  g_free(dir);
}
END_TEST

START_TEST(engine_order)
{
  static const char *const names[] = {"node-10", "node-2", "node-02", "a", "node-", "n9x", "n10", "node-1a",
                                      "node-1", "", "Z", "node-002", "c1-0", "c1-c1_router", "18446744073709551616"};
  size_t n = G_N_ELEMENTS(names);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      int a = cs_natural_cmp(names[i], names[j]), b = cs_natural_cmp(names[j], names[i]);
      ck_assert_msg((a > 0) == (b < 0) && (a == 0) == (i == j), "%s vs %s: not a strict order", names[i], names[j]);
    }
}
END_TEST

typedef struct unit_case {
  const char *text;
  cs_sg_quantity kind;
  double value; /* NAN: refused */
} unit_case;

/* Values as SimGrid 3.32 reads them (sg_host_get_speed, sg_link_get_bandwidth, sg_link_get_latency). */
static const unit_case UNITS[] = {
    {"1kf", CS_SG_SPEED, 1e3},         {"1Yf", CS_SG_SPEED, 1e24},         {"1gigaflops", CS_SG_SPEED, 1e9},
    {"1zetaflops", CS_SG_SPEED, 1e21}, {"1zettaflops", CS_SG_SPEED, NAN},  {"1Kf", CS_SG_SPEED, NAN},
    {"0x10Gf", CS_SG_SPEED, 16e9},     {" 1f ", CS_SG_SPEED, 1},           {"1 f", CS_SG_SPEED, NAN},
    {"1bps", CS_SG_BANDWIDTH, 0.125},  {"1Kibps", CS_SG_BANDWIDTH, 128},   {"1Gbps", CS_SG_BANDWIDTH, 1.25e8},
    {"1MiBps", CS_SG_BANDWIDTH, 1048576}, {"1kBps", CS_SG_BANDWIDTH, 1e3}, {"1Kbps", CS_SG_BANDWIDTH, NAN},
    {"1kiloBps", CS_SG_BANDWIDTH, NAN}, {"1w", CS_SG_TIME, 604800},        {"1m", CS_SG_TIME, 60},
    {"1ps", CS_SG_TIME, 1e-12},        {"1fs", CS_SG_TIME, NAN},           {"", CS_SG_TIME, NAN},
    {"1e-400s", CS_SG_TIME, NAN},      {"2", CS_SG_TIME, 2},
};

START_TEST(simgrid_units)
{
  const unit_case *u = &UNITS[_i];
  double v = 0;
  const char *why = NULL;
  bool ok = cs_sg_parse_value(u->text, u->kind, &v, &why);
  ck_assert_msg(ok == !isnan(u->value), "'%s': %s", u->text, ok ? "read" : why);
  if (ok)
    ck_assert_msg(fabs(v - u->value) <= 1e-12 * fabs(u->value), "'%s': %.17g, not %.17g", u->text, v, u->value);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("xml_validate");
  TCase *tc = tcase_create("files");
  tcase_add_loop_test(tc, bad_files_refused, 0, (int)G_N_ELEMENTS(BAD));
  tcase_add_loop_test(tc, good_files_pass, 0, (int)G_N_ELEMENTS(GOOD));
  tcase_add_loop_test(tc, family_xml_passes, 0, (int)N_TEST_PLATFORMS);
  tcase_add_test(tc, only_used_hosts_need_routes);
  tcase_add_test(tc, topology_takes_its_hosts);
  tcase_add_test(tc, resolve_checks_the_run);
  tcase_add_test(tc, engine_order);
  tcase_add_loop_test(tc, simgrid_units, 0, (int)G_N_ELEMENTS(UNITS));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
