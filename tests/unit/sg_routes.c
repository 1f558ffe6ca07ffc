/* Tests of the route oracle (sim/sg_routes.[ch]) on platforms written by
 * platforms/net.c and loaded by SimGrid.  Check runs each test (and each
 * iteration of a loop test) in a forked child: SimGrid starts once per
 * process.
 *  - every ordered pair of nodes of small PERCS and Dragonfly platforms is
 *    routed as the paper's rule says (PERCS: L1 to the gateway node, L2, L1
 *    from the landing node, each when needed; Dragonfly: T, [L1], L2, [L1], T),
 *    by link name and tier; a few pairs spelt out;
 *  - links per tier (PERCS: sn*nps*(nps-1) L1, sn*(sn-1) L2: 15360 and 4032 for
 *    percs:64,16,16), bandwidths and latencies as specified;
 *  - composed routes equal SimGrid's direct answer for ALL ordered pairs
 *    (percs:4,4,1 ... percs:64,16,16, Dragonfly shapes; a 1/31 sample of the
 *    two large ones in sanitizer builds), with far fewer queries than pairs,
 *    and nothing asked again once cached;
 *  - link ids follow the natural order of names and are identical in two
 *    separate processes (digest of names, tiers and all routes);
 *  - cs_engine_load loads once per process; missing hosts are reported;
 *  - two actors on one host talk through the node's loopback. */
#include "platforms/two_tier_spec.h"
#include "sim/contracts/natural_order.h"
#include "sim/engine/sg_routes.h"

#include <check.h>
#include <glib/gstdio.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/mailbox.h>
#include <xbt/dynar.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXPECT(cond, ...)                                                                                      \
  do {                                                                                                         \
    if (!(cond))                                                                                               \
      ck_abort_msg(__VA_ARGS__);                                                                               \
  } while (0)

typedef struct plat {
  cs_net n;
  int64_t nodes;
  char *dir, *path;
  cs_routes *r;
} plat;

static void write_plat(plat *p, const char *spec)
{
  GError *err = NULL;
  memset(p, 0, sizeof *p);
  ck_assert_msg(cs_net_parse(spec, &p->n, &err), "%s", err ? err->message : "?");
  p->nodes = cs_net_nodes(&p->n);
  p->dir = g_dir_make_tmp("check-routes-XXXXXX", NULL);
  ck_assert_ptr_nonnull(p->dir);
  p->path = g_build_filename(p->dir, "platform.xml", NULL);
  ck_assert_msg(cs_net_write_xml(&p->n, p->path, &err), "%s", err ? err->message : "?");
}

static cs_engine_config config_for(const char *path)
{
  cs_engine_config c;
  cs_engine_config_defaults(&c);
  c.platform_file = path;
  c.quiet = 1;
  return c;
}

static void open_plat(plat *p, const char *spec)
{
  write_plat(p, spec);
  cs_engine_config c = config_for(p->path);
  GError *err = NULL;
  p->r = cs_routes_open(&c, p->nodes, NULL, &err);
  ck_assert_msg(p->r, "%s: %s", spec, err ? err->message : "?");
}

static void close_plat(plat *p)
{
  cs_routes_close(p->r);
  g_unlink(p->path);
  g_rmdir(p->dir);
  g_free(p->path);
  g_free(p->dir);
}

/* ---- the paper's rule, independently of the oracle ---- */

static void add(GPtrArray *names, char *name) { g_ptr_array_add(names, name); }

static GPtrArray *expected_percs(const cs_net *n, int64_t a, int64_t b)
{
  GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
  long long sa = a / n->nps, ia = a % n->nps, sb = b / n->nps, ib = b % n->nps;
  if (sa == sb) {
    add(v, g_strdup_printf("L1-s%lld-n%lld-n%lld", sa, ia, ib));
    return v;
  }
  long long gw = sb % n->nps, land = sa % n->nps; /* Section 3 */
  if (ia != gw)
    add(v, g_strdup_printf("L1-s%lld-n%lld-n%lld", sa, ia, gw));
  add(v, g_strdup_printf("L2-s%lld-s%lld", sa, sb));
  if (land != ib)
    add(v, g_strdup_printf("L1-s%lld-n%lld-n%lld", sb, land, ib));
  return v;
}

static GPtrArray *expected_dragonfly(const cs_net *n, int64_t a, int64_t b)
{
  GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
  long long ga = a / n->nps, ja = a % n->nps, ra = ja / n->df_p;
  long long gb = b / n->nps, jb = b % n->nps, rb = jb / n->df_p;
  add(v, g_strdup_printf("T-g%lld-r%lld-n%lld-up", ga, ra, ja));
  if (ga == gb) {
    if (ra != rb)
      add(v, g_strdup_printf("L1-g%lld-r%lld-r%lld", ga, ra, rb));
  } else {
    long long gw = cs_net_df_gateway_router(n, ga, gb), land = cs_net_df_landing_router(n, ga, gb);
    if (ra != gw)
      add(v, g_strdup_printf("L1-g%lld-r%lld-r%lld", ga, ra, gw));
    add(v, g_strdup_printf("L2-g%lld-g%lld", ga, gb));
    if (land != rb)
      add(v, g_strdup_printf("L1-g%lld-r%lld-r%lld", gb, land, rb));
  }
  add(v, g_strdup_printf("T-g%lld-r%lld-n%lld-down", gb, rb, jb));
  return v;
}

static GPtrArray *expected(const cs_net *n, int64_t a, int64_t b)
{
  return n->shape == &cs_net_shape_percs ? expected_percs(n, a, b) : expected_dragonfly(n, a, b);
}

/* "L1-..." -> "L1", "T-..." -> "T" */
static char *tier_of_name(const char *name) { return g_strndup(name, strcspn(name, "-")); }

static char *route_string(cs_routes *r, int64_t a, int64_t b)
{
  const int32_t *l;
  int k = cs_routes_get(r, a, b, &l);
  GString *s = g_string_new(NULL);
  for (int i = 0; i < k; i++)
    g_string_append_printf(s, "%s%s", i ? " " : "", cs_routes_link_name(r, l[i]));
  return g_string_free(s, FALSE);
}

static const char *small_specs[] = {
    "percs:4,4,1", "percs:6,4,2", "percs:8,3,1", "percs:3,8,1", "percs:2,1,1", "percs:1,5,1",
    "dragonfly:3,2,1,2", "dragonfly:5,2,2,3,2", "dragonfly:9,4,2,2", "dragonfly:4,3,2,1", "dragonfly:2,1,1,1",
    "dragonfly:1,3,1,2",
};

START_TEST(test_routes_follow_the_rule)
{
  plat p;
  open_plat(&p, small_specs[_i]);
  for (int64_t a = 0; a < p.nodes; a++) {
    for (int64_t b = 0; b < p.nodes; b++) {
      if (a == b)
        continue;
      GPtrArray *want = expected(&p.n, a, b);
      const int32_t *l;
      int k = cs_routes_get(p.r, a, b, &l);
      char *got = route_string(p.r, a, b);
      EXPECT(k == (int)want->len, "%s: node %lld -> %lld: %s (%u links expected)", small_specs[_i], (long long)a,
             (long long)b, got, want->len);
      for (int i = 0; i < k; i++) {
        const char *name = cs_routes_link_name(p.r, l[i]);
        char *tier = tier_of_name(g_ptr_array_index(want, i));
        EXPECT(strcmp(name, g_ptr_array_index(want, i)) == 0, "%s: node %lld -> %lld: %s, link %d should be %s",
               small_specs[_i], (long long)a, (long long)b, got, i, (char *)g_ptr_array_index(want, i));
        EXPECT(strcmp(cs_routes_link_tier(p.r, l[i]), tier) == 0, "%s: link %s has tier %s", small_specs[_i], name,
               cs_routes_link_tier(p.r, l[i]));
        g_free(tier);
      }
      g_free(got);
      g_ptr_array_free(want, TRUE);
    }
  }
  close_plat(&p);
}
END_TEST

static char *tiers_of(cs_routes *r, int64_t a, int64_t b)
{
  const int32_t *l;
  int k = cs_routes_get(r, a, b, &l);
  GString *s = g_string_new(NULL);
  for (int i = 0; i < k; i++)
    g_string_append_printf(s, "%s%s", i ? "," : "", cs_routes_link_tier(r, l[i]));
  return g_string_free(s, FALSE);
}

#define TIERS(r, a, b, want)                                                                                   \
  do {                                                                                                         \
    char *got_ = tiers_of(r, a, b);                                                                            \
    ck_assert_msg(strcmp(got_, want) == 0, "node %d -> %d: %s, expected %s", (int)(a), (int)(b), got_, want); \
    g_free(got_);                                                                                              \
  } while (0)

START_TEST(test_percs_chosen_pairs)
{
  plat p;
  open_plat(&p, "percs:4,4,1"); /* node g = supernode g / 4, local g % 4 */
  /* supernode 0 -> 3: gateway node 3 % 4 = 3 (node 3), landing node 0 % 4 = 0 (node 12) */
  TIERS(p.r, 1, 2, "L1");          /* same supernode */
  TIERS(p.r, 1, 13, "L1,L2,L1");   /* non-gateway to non-landing */
  TIERS(p.r, 3, 13, "L2,L1");      /* from the gateway node */
  TIERS(p.r, 1, 12, "L1,L2");      /* to the landing node */
  TIERS(p.r, 3, 12, "L2");         /* gateway to landing */
  char *s = route_string(p.r, 1, 13);
  ck_assert_str_eq(s, "L1-s0-n1-n3 L2-s0-s3 L1-s3-n0-n1");
  g_free(s);
  s = route_string(p.r, 13, 1); /* back: gateway of s3 towards s0 is node 0 of s3, lands on node 3 of s0 */
  ck_assert_str_eq(s, "L1-s3-n1-n0 L2-s3-s0 L1-s0-n3-n1");
  g_free(s);
  close_plat(&p);
}
END_TEST

START_TEST(test_dragonfly_chosen_pairs)
{
  plat p;
  open_plat(&p, "dragonfly:3,2,1,2"); /* 3 groups x 2 routers x 2 nodes; node g: group g / 4, router (g % 4) / 2 */
  /* group 0 -> 1 leaves router 0 and lands on router 1; 0 -> 2 leaves router 1, lands on router 0 */
  TIERS(p.r, 0, 1, "T,T");             /* same router */
  TIERS(p.r, 0, 2, "T,L1,T");          /* same group */
  TIERS(p.r, 0, 6, "T,L2,T");          /* gateway router to landing router */
  TIERS(p.r, 2, 6, "T,L1,L2,T");       /* to the gateway router first */
  TIERS(p.r, 0, 4, "T,L2,L1,T");       /* from the landing router on */
  TIERS(p.r, 2, 4, "T,L1,L2,L1,T");    /* both */
  char *s = route_string(p.r, 2, 4);
  ck_assert_str_eq(s, "T-g0-r1-n2-up L1-g0-r1-r0 L2-g0-g1 L1-g1-r1-r0 T-g1-r0-n0-down");
  g_free(s);
  close_plat(&p);
}
END_TEST

/* ---- counts, bandwidths ---- */

static const char *count_specs[] = {"percs:64,16,16", "percs:4,4,1", "percs:8,3,1", "dragonfly:33,8,4,4",
                                    "dragonfly:5,2,2,3,2"};

START_TEST(test_links_per_tier)
{
  plat p;
  open_plat(&p, count_specs[_i]);
  cs_net_link_counts c = cs_net_count_links(&p.n);
  if (p.n.shape == &cs_net_shape_percs) {
    ck_assert_int_eq(c.l1, p.n.sn * p.n.nps * (p.n.nps - 1));
    ck_assert_int_eq(c.l2, p.n.sn * (p.n.sn - 1));
  }
  ck_assert_int_eq(cs_routes_tier_count(p.r, "L1"), c.l1);
  ck_assert_int_eq(cs_routes_tier_count(p.r, "L2"), c.l2);
  ck_assert_int_eq(cs_routes_tier_count(p.r, "T"), c.term);
  ck_assert_int_eq(cs_routes_tier_count(p.r, "intra"), c.loopback + 1); /* and SimGrid's own __loopback__ */
  ck_assert_int_eq(cs_routes_tier_count(p.r, "?"), 0);
  ck_assert_int_eq(cs_routes_tier_count(p.r, "nonsense"), 0);
  ck_assert_int_eq(cs_routes_nlinks(p.r), c.l1 + c.l2 + c.term + c.loopback + 1);
  if (strcmp(count_specs[_i], "percs:64,16,16") == 0) {
    ck_assert_int_eq(cs_routes_tier_count(p.r, "L1"), 15360); /* the paper, Section 6 */
    ck_assert_int_eq(cs_routes_tier_count(p.r, "L2"), 4032);
  }
  int64_t sum = 0;
  for (int t = 0; t < cs_routes_ntiers(p.r); t++) {
    if (t > 0)
      ck_assert(strcmp(cs_routes_tier_name(p.r, t - 1), cs_routes_tier_name(p.r, t)) < 0);
    sum += cs_routes_tier_count(p.r, cs_routes_tier_name(p.r, t));
  }
  ck_assert_int_eq(sum, cs_routes_nlinks(p.r));
  for (int64_t id = 0; id < cs_routes_nlinks(p.r); id++)
    EXPECT(strcmp(cs_routes_tier_name(p.r, cs_routes_link_tier_index(p.r, id)), cs_routes_link_tier(p.r, id)) == 0,
           "tier index of link %lld", (long long)id);
  close_plat(&p);
}
END_TEST

START_TEST(test_link_parameters_reach_simgrid)
{
  static const char *specs[] = {"percs:4,4,1/l1=5GBps,l2=2.5GBps,lat=1.5us,loopback=20GBps,loopback_lat=50ns",
                                "dragonfly:3,2,1,2/l1=7GBps,l2=3GBps,term=1.25GBps,lat=20ns,loopback=1TBps"};
  plat p;
  open_plat(&p, specs[_i]);
  for (int64_t id = 0; id < cs_routes_nlinks(p.r); id++) {
    const char *tier = cs_routes_link_tier(p.r, id);
    double bw = cs_routes_link_bandwidth(p.r, id), lat = cs_routes_link_latency(p.r, id);
    double want_bw = 0, want_lat = p.n.latency;
    if (strcmp(tier, "L1") == 0)
      want_bw = p.n.l1_bw;
    else if (strcmp(tier, "L2") == 0)
      want_bw = p.n.l2_bw;
    else if (strcmp(tier, "T") == 0)
      want_bw = p.n.term_bw;
    else if (strcmp(tier, "intra") == 0 && !cs_routes_link_internal(p.r, id)) {
      want_bw = p.n.loopback_bw;
      want_lat = p.n.loopback_lat;
    } else
      continue;
    EXPECT(bw == want_bw && lat == want_lat, "link %s: %g B/s %g s, expected %g B/s %g s",
           cs_routes_link_name(p.r, id), bw, lat, want_bw, want_lat);
  }
  close_plat(&p);
}
END_TEST

/* ---- composed == direct ---- */

static const char *compose_specs[] = {"percs:4,4,1",        "percs:6,4,2",        "percs:8,3,1",
                                      "percs:3,8,1",        "percs:64,16,16",     "dragonfly:3,2,1,2",
                                      "dragonfly:5,2,2,3,2", "dragonfly:9,4,2,2", "dragonfly:4,3,2,1",
                                      "dragonfly:33,8,4,4", "dragonfly:1,3,1,2"};

static int64_t gcd(int64_t a, int64_t b) { return b ? gcd(b, a % b) : a; }

START_TEST(test_composed_equals_direct)
{
  plat p;
  open_plat(&p, compose_specs[_i]);
  int64_t n = p.nodes, pairs = n * n;
  /* build the caches in a scrambled order of pairs */
  int64_t step = pairs / 2 + 1;
  while (gcd(step, pairs) != 1)
    step++;
  const int32_t *l;
  for (int64_t k = 0, x = 0; k < pairs; k++, x = (x + step) % pairs)
    EXPECT(cs_routes_get(p.r, x / n, x % n, &l) >= 0, "pair %lld", (long long)x);
  int64_t queries = cs_routes_queries(p.r);
  if (n >= 100) /* percs:64,16,16: 140,352 queries for 1,047,552 pairs */
    EXPECT(queries * 5 < n * (n - 1), "%s: %lld queries for %lld pairs", compose_specs[_i], (long long)queries,
           (long long)(n * (n - 1)));
  /* sanitizers make a SimGrid query ~70 times slower (23 us): sample there */
#ifdef COLLSIM_SANITIZED
  const int64_t stride = n >= 100 ? 31 : 1;
#else
  const int64_t stride = 1;
#endif
  int64_t asked = 0;
  int32_t *copy = g_new(int32_t, 64);
  for (int64_t a = 0; a < n; a++) {
    for (int64_t b = a % stride; b < n; b += stride) {
      asked++; /* the direct query below; a == b too (the loopback) */
      int k = cs_routes_get(p.r, a, b, &l);
      EXPECT(k >= 0 && k <= 64, "node %lld -> %lld: %d links", (long long)a, (long long)b, k);
      memcpy(copy, l, (size_t)k * sizeof *l);
      int m = cs_routes_get_direct(p.r, a, b, &l);
      if (k != m || memcmp(copy, l, (size_t)k * sizeof *l) != 0) {
        char *got = route_string(p.r, a, b);
        ck_abort_msg("%s: node %lld -> %lld composed %s differs from SimGrid's (%d links)", compose_specs[_i],
                     (long long)a, (long long)b, got, m);
      }
    }
  }
  /* the composed pass above asked nothing new: every part was cached */
  ck_assert_int_eq(cs_routes_queries(p.r) - queries, asked);
  g_free(copy);
  close_plat(&p);
}
END_TEST

/* ---- ids ---- */


static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
  const unsigned char *c = data;
  for (size_t i = 0; i < len; i++)
    h = (h ^ c[i]) * 1099511628211ULL;
  return h;
}

/* In a fresh child process: open the platform, digest link names, tiers and
 * every route by ids. */
static uint64_t digest_in_child(const char *path, int64_t nodes)
{
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    cs_engine_config c = config_for(path);
    cs_routes *r = cs_routes_open(&c, nodes, NULL, NULL);
    uint64_t h = 14695981039346656037ULL;
    for (int64_t id = 0; r && id < cs_routes_nlinks(r); id++) {
      h = fnv(h, cs_routes_link_name(r, id), strlen(cs_routes_link_name(r, id)) + 1);
      h = fnv(h, cs_routes_link_tier(r, id), strlen(cs_routes_link_tier(r, id)) + 1);
    }
    for (int64_t a = 0; r && a < nodes; a++) {
      for (int64_t b = 0; b < nodes; b++) {
        const int32_t *l;
        int k = cs_routes_get(r, a, b, &l);
        h = fnv(h, &k, sizeof k);
        h = fnv(h, l, (size_t)k * sizeof *l);
      }
    }
    if (write(fds[1], &h, sizeof h) != sizeof h)
      _exit(2);
    _exit(r ? 0 : 1);
  }
  close(fds[1]);
  uint64_t h = 0;
  ck_assert_int_eq(read(fds[0], &h, sizeof h), sizeof h);
  close(fds[0]);
  int status;
  waitpid(pid, &status, 0);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return h;
}

START_TEST(test_ids_deterministic)
{
  static const char *specs[] = {"percs:3,12,1", "dragonfly:5,2,2,3,2"};
  plat p;
  write_plat(&p, specs[_i]);
  uint64_t h1 = digest_in_child(p.path, p.nodes), h2 = digest_in_child(p.path, p.nodes);
  ck_assert_msg(h1 == h2, "%s: two processes disagree on ids or routes", specs[_i]);
  cs_engine_config c = config_for(p.path);
  p.r = cs_routes_open(&c, p.nodes, NULL, NULL);
  ck_assert_ptr_nonnull(p.r);
  for (int64_t id = 1; id < cs_routes_nlinks(p.r); id++)
    EXPECT(cs_natural_cmp(cs_routes_link_name(p.r, id - 1), cs_routes_link_name(p.r, id)) < 0, "%s: %s before %s",
           specs[_i], cs_routes_link_name(p.r, id - 1), cs_routes_link_name(p.r, id));
  if (_i == 0) { /* natural, not lexicographic: n9 before n10 */
    int64_t n9 = -1, n10 = -1;
    for (int64_t id = 0; id < cs_routes_nlinks(p.r); id++) {
      if (strcmp(cs_routes_link_name(p.r, id), "L1-s0-n0-n9") == 0)
        n9 = id;
      if (strcmp(cs_routes_link_name(p.r, id), "L1-s0-n0-n10") == 0)
        n10 = id;
    }
    ck_assert(n9 >= 0 && n10 == n9 + 1);
  }
  close_plat(&p);
}
END_TEST

/* ---- loading ---- */

START_TEST(test_engine_loads_once)
{
  plat p, q;
  open_plat(&p, "percs:2,2,1");
  write_plat(&q, "percs:3,2,1");
  GError *err = NULL;
  cs_engine_config c = config_for(p.path);
  ck_assert(cs_engine_load(&c, &err)); /* same file: nothing to do */
  cs_routes *again = cs_routes_open(&c, p.nodes, NULL, &err);
  ck_assert_ptr_nonnull(again);
  cs_routes_close(again);
  c = config_for(q.path);
  ck_assert(!cs_engine_load(&c, &err));
  ck_assert_msg(strstr(err->message, "already holds"), "%s", err->message);
  g_clear_error(&err);
  ck_assert_ptr_null(cs_routes_open(&c, q.nodes, NULL, &err));
  ck_assert_msg(strstr(err->message, "already holds"), "%s", err->message);
  g_clear_error(&err);
  close_plat(&p);
  g_unlink(q.path);
  g_rmdir(q.dir);
  g_free(q.path);
  g_free(q.dir);
}
END_TEST

START_TEST(test_missing_host)
{
  plat p;
  write_plat(&p, "percs:4,4,1");
  cs_engine_config c = config_for(p.path);
  GError *err = NULL;
  ck_assert_ptr_null(cs_routes_open(&c, 17, NULL, &err));
  ck_assert_msg(strstr(err->message, "has 16 hosts; the run needs 17"), "%s", err->message);
  g_clear_error(&err);
  ck_assert_ptr_null(cs_routes_open(&c, 0, NULL, &err));
  g_clear_error(&err);
  p.r = cs_routes_open(&c, 16, NULL, &err);
  ck_assert_ptr_nonnull(p.r);
  const int32_t *l;
  ck_assert_int_eq(cs_routes_get(p.r, 5, 5, &l), 1); /* its loopback */
  ck_assert_str_eq(cs_routes_link_name(p.r, l[0]), "lo-node-5");
  ck_assert_int_eq(cs_routes_get(p.r, -1, 5, &l), -1);
  ck_assert_int_eq(cs_routes_get(p.r, 0, 16, &l), -1);
  ck_assert_int_eq(cs_routes_get_direct(p.r, 16, 0, &l), -1);
  close_plat(&p);
}
END_TEST

START_TEST(test_unreadable_platform)
{
  cs_engine_config c = config_for("/nonexistent-dir-of-collsim/p.xml");
  GError *err = NULL;
  ck_assert_ptr_null(cs_routes_open(&c, 4, NULL, &err));
  ck_assert_msg(strstr(err->message, "cannot read platform file"), "%s", err->message);
  g_clear_error(&err);
}
END_TEST

/* ---- loopback ---- */

static double received_at;

static void receiver(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  void *m = sg_mailbox_get(sg_mailbox_by_name("box"));
  ck_assert_ptr_eq(m, &received_at);
  received_at = simgrid_get_clock();
}

static void sender(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  sg_mailbox_put(sg_mailbox_by_name("box"), &received_at, 1000000000); /* 1 GB */
}

START_TEST(test_two_actors_on_one_host_talk)
{
  plat p;
  open_plat(&p, "percs:2,2,1/loopback=50GBps");
  sg_host_t h = sg_host_by_name("node-3");
  xbt_dynar_t d = xbt_dynar_new(sizeof(sg_link_t), NULL);
  sg_host_get_route(h, h, d);
  ck_assert_int_eq(xbt_dynar_length(d), 1);
  ck_assert_str_eq(sg_link_get_name(xbt_dynar_get_as(d, 0, sg_link_t)), "lo-node-3");
  xbt_dynar_free(&d);
  sg_actor_create("receiver", h, receiver, 0, NULL);
  sg_actor_create("sender", h, sender, 0, NULL);
  simgrid_run();
  /* 1 GB at 50 GB/s times the model's bandwidth factor (LV08: 0.97) */
  ck_assert_msg(received_at > 0.019 && received_at < 0.022, "received at %g s", received_at);
  close_plat(&p);
}
END_TEST

static Suite *routes_suite(void)
{
  Suite *s = suite_create("routes");
  TCase *tc = tcase_create("rule");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_routes_follow_the_rule, 0, (int)G_N_ELEMENTS(small_specs));
  tcase_add_test(tc, test_percs_chosen_pairs);
  tcase_add_test(tc, test_dragonfly_chosen_pairs);
  suite_add_tcase(s, tc);
  tc = tcase_create("links");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_links_per_tier, 0, (int)G_N_ELEMENTS(count_specs));
  tcase_add_loop_test(tc, test_link_parameters_reach_simgrid, 0, 2);
  tcase_add_loop_test(tc, test_ids_deterministic, 0, 2);
  suite_add_tcase(s, tc);
  tc = tcase_create("compose");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_composed_equals_direct, 0, (int)G_N_ELEMENTS(compose_specs));
  suite_add_tcase(s, tc);
  tc = tcase_create("load");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_engine_loads_once);
  tcase_add_test(tc, test_missing_host);
  tcase_add_test(tc, test_unreadable_platform);
  tcase_add_test(tc, test_two_actors_on_one_host_talk);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(routes_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
