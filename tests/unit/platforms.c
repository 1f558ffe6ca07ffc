/* The platform interface (platforms/platform.h), checked on every family of
 * the registry:
 *  - a spec reads back from its description; nodes, cores and slots agree
 *    with the two-tier view; gateways lie inside their supernode; the rank
 *    mapping puts exactly `cores` ranks on every node;
 *  - bad specs are refused with a message naming the problem;
 *  - every link of the platform's netmap has a tier (the torus's X, Y, Z;
 *    a torus written to a file and read back too) and both endpoints, and
 *    every route, a node's route to itself included, is a chain of links
 *    from its source host to its destination host, each link starting
 *    where the one before it ends (tests/unit/netmap.c checks that the
 *    netmap routes as SimGrid does);
 *  - every registered collective, run timed on SimGrid actors, sends exactly
 *    the node-pair traffic the untimed pattern-generator predicts (the
 *    pipeline compares them pair by pair and fails otherwise), and the
 *    per-link CSV of the timed run (bytes and messages of the messages the
 *    actors delivered, each charged to SimGrid's route between the two
 *    hosts) equals the untimed run's (the pattern routed by linkUsage), on a
 *    small platform of every family, and on files written in SimGrid's own
 *    conventions (tests/data/platforms/), one rank per host.
 * Check forks each test, and each timed run gets a process of its own
 * (SimGrid initialises once per process). */
#include "platforms/platform.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/tempdir.h"
#include "sim/drivers/collective.h"
#include "sim/engine/forked.h"
#include "sim/engine/sg_routes.h"
#include "tests/lib/algos.h"
#include "tests/lib/platform_specs.h"

#include <check.h>
#include <inttypes.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>
#include <stdlib.h>
#include <string.h>

static cs_platform *parse_ok(const char *spec)
{
  GError *err = NULL;
  cs_platform *p = cs_platform_parse(spec, &err);
  ck_assert_msg(p != NULL, "%s: %s", spec, err ? err->message : "?");
  return p;
}

static const char *const WITH_PARAMS[] = {"torus:2x2x2/4,bw=1GBps,lat=50ns", "percs:2,2,2/lat=1us,l2=5GBps",
                                          "dragonfly:3,2,1,2/term=20GBps", "smp:4w/cycles=4000",
                                          "smp:4w", "smp:8x4@166", "smp:6x4@300/net_lat=100us,map=inorder",
                                          "cpm:6875,8,2", "cpm:2048,1024,1", "cpm:1,1,1024",
                                          "cpm:3,2,2/proc_lat=1us,proc_bw=8GBps,shm_lat=300ns,shm_bw=3GBps,"
                                          "net_lat=20us,net_bw=10Gbps,o_msg=2.5us,speed=2.5Gf",
                                          "cpm:1,1,1/speed=1234567f", "cpm:1,1,1/speed=3e9"};

static void check_round_trip(const char *spec)
{
  cs_platform *p = parse_ok(spec);
  GError *err = NULL;
  ck_assert_msg(cs_platform_resolve(p, 1, &err), "%s: %s", spec, err ? err->message : "?");
  char *d = cs_platform_describe(p);
  cs_platform *q = parse_ok(d);
  ck_assert(cs_platform_resolve(q, 1, NULL));
  char *d2 = cs_platform_describe(q);
  ck_assert_msg(strcmp(d, d2) == 0, "%s: described as %s, which reads back as %s", spec, d, d2);
  ck_assert_int_eq(p->nodes, q->nodes);
  ck_assert_int_eq(p->cores, q->cores);
  ck_assert_int_eq(p->mapping, q->mapping);
  g_free(d);
  g_free(d2);
  cs_platform_free(p);
  cs_platform_free(q);
}

START_TEST(specs_read_back)
{
  for (size_t s = 0; s < N_TEST_PLATFORMS; s++)
    check_round_trip(TEST_PLATFORMS[s]);
  for (size_t s = 0; s < G_N_ELEMENTS(WITH_PARAMS); s++)
    check_round_trip(WITH_PARAMS[s]);
}
END_TEST

START_TEST(views_agree_with_platforms)
{
  for (size_t s = 0; s < N_TEST_PLATFORMS; s++) {
    cs_platform *p = parse_ok(TEST_PLATFORMS[s]);
    ck_assert(cs_platform_resolve(p, cs_platform_slots(p), NULL));
    cs_two_tier tt;
    cs_platform_two_tier(p, &tt);
    ck_assert_int_eq(tt.sn * tt.nps, p->nodes);
    ck_assert_int_eq(tt.cpn, p->cores);
    ck_assert_int_eq(tt.p, cs_platform_slots(p));
    for (int64_t a = 0; a < tt.sn; a++)
      for (int64_t b = 0; b < tt.sn; b++)
        if (a != b) {
          int64_t g = cs_tt_gateway(&tt, a, b), l = cs_tt_landing(&tt, a, b);
          ck_assert_msg(g >= 0 && g < tt.nps && l >= 0 && l < tt.nps, "%s: gateway %lld, landing %lld",
                        TEST_PLATFORMS[s], (long long)g, (long long)l);
        }
    int64_t *per_node = g_new0(int64_t, p->nodes);
    for (int64_t r = 0; r < tt.p; r++) {
      int64_t node = cs_tt_node_of(&tt, r);
      ck_assert(node == cs_platform_node_of(p, r) && node >= 0 && node < p->nodes);
      per_node[node]++;
    }
    for (int64_t g = 0; g < p->nodes; g++)
      ck_assert_int_eq(per_node[g], p->cores);
    g_free(per_node);
    cs_platform_free(p);
  }
}
END_TEST

START_TEST(bad_specs_refused)
{
  const struct {
    const char *spec, *needle;
  } bad[] = {
      {"", "empty platform spec"},
      {"bogus:1,2", "unknown platform kind 'bogus'"},
      {"torus:1x2x2/4", "X = 1 must be between 2 and 4096"},
      {"torus:8x8/4", "missing fields"},
      {"torus:8x8x8/0", "torus cores"},
      {"torus:8x8x8/4,speed=1", "unknown parameter 'speed'"},
      {"torus:8x8x8/4,bw=nan", "is not a non-negative number"},
      {"torus:8x8x8/4,lat=inf", "is not a non-negative number"},
      {"percs:4,0,4", "NPS must be at least 1"},
      {"smp:9x9", "needs its processors' clock"},
      {"smp:8x4", "add @MHZ"},
      {"smp:4w/map=random", "expected spread or inorder"},
      {"smp:8x4@-5", "not a non-negative number"},
      {"fattree:1,2", "K = 1 must be between 2 and 1024"},
      {"fattree:2,0", "L must be at least 1"},
      {"fattree:2,30", "L = 30 must be between 1 and 16"},
      {"fattree:2,2/bw=0", "a bandwidth must be positive"},
      {"fattree:2,2/x=3", "unknown parameter 'x'"},
      {"fattree:2", "missing fields"},
      {"cpm:0,2,2", "C must be at least 1"},
      {"cpm:2,0,2", "P must be at least 1"},
      {"cpm:2,2,0", "M must be at least 1"},
      {"cpm:2,2", "missing fields"},
      {"cpm:1,2,3,4", "extra fields"},
      {"cpm:2048,1024,2", "more than 2^21"},
      {"cpm:2147483647,2147483647,1024", "more than 2^21"},
      {"cpm:1,1,1025", "more than 1024"},
      {"cpm:2,2,2/foo=1", "unknown parameter 'foo'"},
      {"cpm:2,2,2/net_lat=-1us", "not a non-negative number"},
      {"cpm:2,2,2/shm_bw=0Bps", "cpm shm_bw"},
      {"cpm:2,2,2/speed=fast", "cpm speed"},
      {"cpm:2,2,2/proc_lat", "not key=value"},
      {"file:/nonexistent/x.xml", "cannot read platform file"},
      {"no-such-file.xml", "cannot read platform file"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    GError *err = NULL;
    cs_platform *p = cs_platform_parse(bad[i].spec, &err);
    ck_assert_msg(p == NULL, "'%s' accepted", bad[i].spec);
    ck_assert_msg(err->domain == CS_INPUT_ERROR, "'%s': not an input error", bad[i].spec);
    ck_assert_msg(strstr(err->message, bad[i].needle), "'%s': '%s' lacks '%s'", bad[i].spec, err->message,
                  bad[i].needle);
    g_error_free(err);
  }
  /* sizes checked before anything is written */
  GError *err = NULL;
  cs_platform *p = parse_ok("torus:2000x2000x2000/4");
  ck_assert(!cs_platform_resolve(p, 1, &err));
  ck_assert_msg(strstr(err->message, "too many"), "%s", err->message);
  g_clear_error(&err);
  cs_platform_free(p);
  p = parse_ok("torus:2x2x2/4");
  ck_assert(!cs_platform_resolve(p, 33, &err));
  ck_assert_msg(strstr(err->message, "larger than the platform"), "%s", err->message);
  g_clear_error(&err);
  cs_platform_free(p);
  p = parse_ok("percs:4000,1,1");
  ck_assert(cs_platform_resolve(p, 1, NULL));
  ck_assert(!cs_platform_check_size(p, &err));
  ck_assert_msg(strstr(err->message, "too large"), "%s", err->message);
  g_clear_error(&err);
  cs_platform_free(p);
}
END_TEST

/* ---- the netmap: every link has a tier and ends, routes are chains ---- */

static cs_netmap *open_map(const cs_platform *p)
{
  GError *err = NULL;
  cs_netmap *m = cs_platform_netmap(p, &err);
  ck_assert_msg(m != NULL, "%s", err ? err->message : "?");
  return m;
}

/* Tier and ends of link l. */
static void link_facts(const cs_netmap *m, int64_t l, const char **tier, GString *src, GString *dst)
{
  g_string_truncate(src, 0);
  g_string_truncate(dst, 0);
  if (!m->ops->link_ends(m, l, src, dst)) {
    g_string_assign(src, "?");
    g_string_assign(dst, "?");
  }
  *tier = cs_netmap_link_tier(m, l);
}

/* Every route from node a to node b is a chain of links from a's host to
 * b's, each starting where the one before ends (hops through routers). */
static void routes_chain(const cs_netmap *m, const cs_platform *p)
{
  cs_route_buf buf = {0};
  GString *src = g_string_new(NULL), *dst = g_string_new(NULL);
  for (int64_t a = 0; a < m->nodes; a++)
    for (int64_t b = 0; b < m->nodes; b++) {
      const int32_t *l;
      int n = cs_netmap_route(m, &buf, a, b, &l);
      ck_assert_int_ge(n, 1);
      char *from = g_strdup_printf("node-%lld", (long long)a), *to = g_strdup_printf("node-%lld", (long long)b);
      char *at = g_strdup(from);
      for (int i = 0; i < n; i++) {
        const char *tier;
        link_facts(m, l[i], &tier, src, dst);
        char *name = cs_netmap_link_name(m, l[i]);
        ck_assert_msg(strcmp(src->str, at) == 0, "%s: route %s -> %s: link %s starts at %s, not %s",
                      p->family->kind, from, to, name, src->str, at);
        g_free(name);
        g_free(at);
        at = g_strdup(dst->str);
      }
      ck_assert_msg(strcmp(at, to) == 0, "route %s -> %s ends at %s", from, to, at);
      g_free(at);
      g_free(from);
      g_free(to);
    }
  g_string_free(src, TRUE);
  g_string_free(dst, TRUE);
  cs_route_buf_clear(&buf);
}

static int64_t links_of_tier(const cs_netmap *m, const char *tier)
{
  int64_t n = 0;
  for (int64_t l = 0; l < m->nlinks; l++)
    n += !cs_netmap_link_internal(m, l) && strcmp(cs_netmap_link_tier(m, l), tier) == 0;
  return n;
}

/* Platform _i of TEST_PLATFORMS, or (last) a torus written to a file and read
 * back as a file platform. */
static cs_platform *platform_for_test(int i, char **tmp)
{
  *tmp = NULL;
  if (i < (int)N_TEST_PLATFORMS)
    return parse_ok(TEST_PLATFORMS[i]);
  cs_platform *t = parse_ok("torus:2x2x2/1");
  ck_assert(cs_platform_resolve(t, 1, NULL));
  ck_assert(cs_platform_write_temp(t, tmp, NULL));
  cs_platform_free(t);
  char *spec = g_strdup_printf("file:%s", *tmp);
  cs_platform *p = parse_ok(spec);
  g_free(spec);
  p->cores = 2;
  return p;
}

START_TEST(every_link_has_a_tier)
{
  char *file = NULL;
  cs_platform *p = platform_for_test(_i, &file);
  ck_assert(cs_platform_resolve(p, cs_platform_slots(p), NULL));
  cs_netmap *m = open_map(p);
  bool file_platform = strcmp(p->family->kind, "file") == 0;
  GString *src = g_string_new(NULL), *dst = g_string_new(NULL);
  for (int64_t l = 0; l < m->nlinks; l++) {
    const char *tier;
    link_facts(m, l, &tier, src, dst);
    char *name = cs_netmap_link_name(m, l);
    if (!cs_netmap_link_internal(m, l)) {
      ck_assert_msg(strcmp(tier, "?") != 0, "%s: link %s has no tier", p->family->kind, name);
      ck_assert_msg(strcmp(src->str, "?") != 0 && strcmp(dst->str, "?") != 0, "link %s has no endpoints", name);
    }
    g_free(name);
  }
  g_string_free(src, TRUE);
  g_string_free(dst, TRUE);
  if (strcmp(p->family->kind, "cpm") != 0) /* cpm names its loopbacks "proc" */
    ck_assert_int_eq(links_of_tier(m, "intra"), p->nodes); /* a loopback per node */
  if (strcmp(p->family->kind, "torus") == 0 || file_platform) /* the file is a torus written out */
    ck_assert(links_of_tier(m, "X") > 0 && links_of_tier(m, "Y") > 0 && links_of_tier(m, "Z") > 0);
  routes_chain(m, p);
  cs_netmap_free(m);
  if (file)
    cs_tempfile_remove(file);
  g_free(file);
  cs_platform_free(p);
}
END_TEST

/* ---- cpm (FG-MPI [C,P,M], seed 003 Section 2) ---- */

START_TEST(cpm_shape_and_defaults)
{
  cs_platform *p = parse_ok("cpm:6875,8,2");
  ck_assert_int_eq(p->nodes, 16);
  ck_assert_int_eq(p->cores, 6875);
  ck_assert_int_eq(p->nodes_per_machine, 8);
  ck_assert_int_eq(cs_platform_slots(p), 110000);
  ck_assert_int_eq(p->mapping, CS_MAP_IN_ORDER);
  ck_assert_int_eq(cs_platform_node_of(p, 6874), 0);
  ck_assert_int_eq(cs_platform_node_of(p, 6875), 1);
  ck_assert_int_eq(cs_platform_node_of(p, 109999), 15);
  ck_assert_str_eq(p->model, "CM02");
  ck_assert(p->o_send == 1e-6 && p->o_recv == 1e-6);
  ck_assert(p->link_bw == 125e6 && p->header_bytes == 0);
  ck_assert(cs_platform_resolve(p, 110000, NULL));
  cs_platform_free(p);
  p = parse_ok("cpm:2,2,2/o_msg=3us,net_bw=1Gbps");
  ck_assert(p->o_send == 3e-6 && p->o_recv == 3e-6 && p->link_bw == 125e6);
  cs_platform_free(p);
  /* the canonical spec leaves defaults out and writes each value once */
  const struct {
    const char *spec, *canonical;
  } canon[] = {
      {"cpm:4,2,2/net_lat=50us,proc_bw=4GBps,speed=1Gf", "cpm:4,2,2"},
      {"cpm:4,2,2/speed=2500Mf,net_bw=10Gbps", "cpm:4,2,2/net_bw=1.25GBps,speed=2.5Gf"},
      {"cpm:1,3,5/o_msg=0s,shm_lat=0.3us", "cpm:1,3,5/shm_lat=300ns,o_msg=0s"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(canon); i++) {
    p = parse_ok(canon[i].spec);
    char *d = cs_platform_describe(p);
    ck_assert_msg(strcmp(d, canon[i].canonical) == 0, "%s: described as %s, not %s", canon[i].spec, d,
                  canon[i].canonical);
    g_free(d);
    cs_platform_free(p);
  }
  /* the size limits: N = 2^21 and M = 1024 are accepted */
  p = parse_ok("cpm:1,2048,1024");
  int64_t links = 0, bytes = 0;
  p->family->estimate(p, &links, &bytes);
  ck_assert_int_eq(links, 3 * 2048 * 1024 + 1024);
  ck_assert(cs_platform_check_size(p, NULL));
  cs_platform_free(p);
}
END_TEST

/* The route from node a to node b: its link names (space-separated), tiers
 * and total latency, from the netmap (tests/unit/netmap.c checks it is
 * SimGrid's). */
static int cpm_route(const cs_netmap *m, int64_t a, int64_t b, GString *names, GString *tiers, double *lat)
{
  cs_route_buf buf = {0};
  const int32_t *links;
  int n = cs_netmap_route(m, &buf, a, b, &links);
  g_string_truncate(names, 0);
  g_string_truncate(tiers, 0);
  *lat = 0;
  for (int i = 0; i < n; i++) {
    char *name = cs_netmap_link_name(m, links[i]);
    g_string_append_printf(names, "%s%s", i ? " " : "", name);
    g_string_append_printf(tiers, "%s%s", i ? " " : "", cs_netmap_link_tier(m, links[i]));
    *lat += m->ops->link_latency(m, links[i]);
    g_free(name);
  }
  cs_route_buf_clear(&buf);
  return n;
}

/* cpm:2,3,3/...: hosts node-0 .. node-8, machine m holding hosts 3m .. 3m+2. */
START_TEST(cpm_routes)
{
  cs_platform *p = parse_ok("cpm:2,3,3/proc_lat=1us,shm_lat=400ns,net_lat=60us");
  ck_assert(cs_platform_resolve(p, cs_platform_slots(p), NULL));
  cs_netmap *m = open_map(p);
  ck_assert_int_eq(links_of_tier(m, "proc"), 9);
  ck_assert_int_eq(links_of_tier(m, "shm"), 18);
  ck_assert_int_eq(links_of_tier(m, "lan"), 6); /* lan-<m>_UP, _DOWN */
  GString *n = g_string_new(NULL), *t = g_string_new(NULL);
  double lat;
  /* collocated proclets: the host's loopback */
  ck_assert_int_eq(cpm_route(m, 4, 4, n, t, &lat), 1);
  ck_assert_str_eq(n->str, "machine-1_link_4_loopback");
  ck_assert_str_eq(t->str, "proc");
  /* OS processes of one machine: the two private links */
  cpm_route(m, 4, 5, n, t, &lat);
  ck_assert_str_eq(n->str, "machine-1_link_4_UP machine-1_link_5_DOWN");
  ck_assert_str_eq(t->str, "shm shm");
  ck_assert_double_eq_tol(lat, 400e-9, 1e-15);
  /* machines: private link, the two LAN links, private link */
  cpm_route(m, 1, 7, n, t, &lat);
  ck_assert_str_eq(n->str, "machine-0_link_1_UP lan-0_UP lan-2_DOWN machine-2_link_7_DOWN");
  ck_assert_str_eq(t->str, "shm lan lan shm");
  ck_assert_double_eq_tol(lat, 60e-6 + 400e-9, 1e-15);
  cpm_route(m, 7, 1, n, t, &lat);
  ck_assert_str_eq(n->str, "machine-2_link_7_UP lan-2_UP lan-0_DOWN machine-0_link_1_DOWN");
  for (int64_t a = 0; a < p->nodes; a++)
    for (int64_t b = 0; b < p->nodes; b++)
      ck_assert_int_eq(cpm_route(m, a, b, n, t, &lat), a == b ? 1 : a / 3 == b / 3 ? 2 : 4);
  g_string_free(n, TRUE);
  g_string_free(t, TRUE);
  cs_netmap_free(m);
  cs_platform_free(p);
}
END_TEST

/* ---- timed = untimed, every algorithm, every family ---- */

typedef struct timed_case {
  const char *spec;
  size_t algo;
  uint64_t size;
  bool timed;
  int cores; /* > 0: ranks per host (a file platform's --cores) */
} timed_case;

typedef struct timed_answer {
  uint64_t messages, bytes, link_bytes;
  char per_link_sha256[65];
  bool ran;
} timed_answer;

static void answer_per_link(timed_answer *ans, const GString *csv)
{
  char *sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, csv->str, (gssize)csv->len);
  g_strlcpy(ans->per_link_sha256, sha, sizeof ans->per_link_sha256);
  g_free(sha);
  char **lines = g_strsplit(csv->str, "\n", -1);
  for (int i = 1; lines[i] && *lines[i]; i++) {
    char **f = g_strsplit(lines[i], ",", -1);
    ans->link_bytes += g_ascii_strtoull(f[5], NULL, 10);
    g_strfreev(f);
  }
  g_strfreev(lines);
}

/* In a child: the pipeline, routed, timed or not.  Timed, it fails unless
 * the actors' node-pair traffic and per-link traffic equal the
 * pattern-generator's; the per-link CSV comes back as a checksum. */
static gboolean timed_child(void *arg, void *out, GError **err)
{
  const timed_case *tc = arg;
  timed_answer *ans = out;
  cs_platform *p = cs_platform_parse(tc->spec, err);
  if (p && tc->cores > 0)
    p->cores = tc->cores;
  if (!p || !cs_platform_resolve(p, cs_platform_slots(p), err))
    return FALSE;
  const cs_coll_algo *a = cs_coll_algo_at(tc->algo);
  cs_two_tier tt;
  cs_platform_two_tier(p, &tt);
  cs_sched_params prm;
  ans->ran = test_setup(&prm, a, &tt, tc->size);
  if (!ans->ran)
    return TRUE; /* refused for an accepted reason */
  cs_engine_config ec;
  cs_engine_config_defaults(&ec);
  ec.quiet = 1;
  ec.o_send = ec.o_recv = 0;
  cs_coll_options o = {.links = true, .timed = tc->timed, .verify = true, .gamma = 1e-10, .quiet = true};
  cs_coll_session *S = cs_coll_session_open(p, &o, &ec, err);
  cs_coll_item it = {.algo = a, .size = tc->size, .script = strcmp(a->name, "script") == 0 ? test_script(tt.p) : NULL};
  cs_coll_outputs outputs = {.per_link = g_string_new(NULL)};
  cs_record *r = S ? cs_coll_run(S, &it, &outputs, err) : NULL;
  gboolean ok = r != NULL;
  if (ok) {
    char *m = cs_record_text(r, "messages"), *b = cs_record_text(r, "bytes");
    ans->messages = g_ascii_strtoull(m, NULL, 10);
    ans->bytes = g_ascii_strtoull(b, NULL, 10);
    ok = !tc->timed || cs_record_has(r, "timed_matches_pattern");
    answer_per_link(ans, outputs.per_link);
    g_free(m);
    g_free(b);
  }
  g_string_free(outputs.per_link, TRUE);
  cs_record_free(r);
  cs_coll_session_close(S);
  cs_platform_free(p);
  return ok;
}

static timed_answer run_case(const char *spec, size_t a, bool timed, int cores)
{
  timed_case tc = {spec, a, cs_coll_per_rank(cs_coll_algo_at(a)->coll) ? 96 : 1000, timed, cores};
  timed_answer ans = {0};
  GError *err = NULL;
  gboolean ok = cs_run_forked(timed_child, &tc, &ans, sizeof ans, &err);
  ck_assert_msg(ok, "%s, %s %s%s: %s", spec, cs_coll_name(cs_coll_algo_at(a)->coll), cs_coll_algo_at(a)->name,
                timed ? " timed" : "", err ? err->message : "?");
  return ans;
}

/* Every algorithm, timed and untimed, on one platform: the same messages,
 * bytes and per-link CSV. */
static void check_timed_equals_untimed(const char *spec, int cores)
{
  for (size_t a = 0; a < cs_coll_algo_count(); a++) {
    timed_answer t = run_case(spec, a, true, cores), u = run_case(spec, a, false, cores);
    const char *what = cs_coll_algo_at(a)->name;
    ck_assert_msg(t.ran == u.ran, "%s %s: ran timed %d, untimed %d", spec, what, t.ran, u.ran);
    if (!t.ran)
      continue;
    ck_assert(t.messages > 0 && t.messages == u.messages && t.bytes == u.bytes);
    ck_assert_msg(t.link_bytes >= t.bytes, "%s %s: %" PRIu64 " bytes on the links, %" PRIu64 " sent", spec, what,
                  t.link_bytes, t.bytes); /* every message crosses one link at least */
    ck_assert_msg(strcmp(t.per_link_sha256, u.per_link_sha256) == 0, "%s %s: per-link CSV timed != untimed", spec,
                  what);
  }
}

START_TEST(timed_equals_untimed) { check_timed_equals_untimed(TEST_PLATFORMS[_i], 0); }
END_TEST

/* Files written in SimGrid's own conventions (tests/data/platforms/: Full,
 * Floyd and Dijkstra zones with routers, nested zones with gateways and
 * bypass routes, several clusters, two tori, a fat tree beside a
 * Dragonfly; hosts named freely), one rank per host. */
static const char *const simgrid_files[] = {"full_routers.xml", "floyd_routers.xml", "dijkstra_routers.xml",
                                            "nested_zones.xml", "clusters_multi.xml", "torus_pair.xml",
                                            "fattree_dragonfly.xml"};

START_TEST(timed_equals_untimed_on_simgrid_files)
{
  char *path = g_build_filename(COLLSIM_SRCDIR, "tests", "data", "platforms", simgrid_files[_i], NULL);
  char *spec = g_strconcat("file:", path, NULL);
  check_timed_equals_untimed(spec, 1);
  g_free(spec);
  g_free(path);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("platforms");
  TCase *tc = tcase_create("interface");
  tcase_add_test(tc, specs_read_back);
  tcase_add_test(tc, views_agree_with_platforms);
  tcase_add_test(tc, bad_specs_refused);
  tcase_add_test(tc, cpm_shape_and_defaults);
  suite_add_tcase(s, tc);
  tc = tcase_create("simgrid");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, every_link_has_a_tier, 0, (int)N_TEST_PLATFORMS + 1);
  tcase_add_test(tc, cpm_routes);
  tcase_add_loop_test(tc, timed_equals_untimed, 0, (int)N_TEST_PLATFORMS);
  tcase_add_loop_test(tc, timed_equals_untimed_on_simgrid_files, 0, (int)G_N_ELEMENTS(simgrid_files));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
