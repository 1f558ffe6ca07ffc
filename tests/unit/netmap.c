/* The SimGrid-free netmap of every platform family (sim/contracts/netmap.h)
 * against SimGrid itself, on every registered example (and a few larger
 * shapes): for every ordered pair of nodes, a == b included, the netmap's
 * route is SimGrid's sg_host_get_route link for link (by name, in order),
 * and every link has SimGrid's bandwidth and latency and the tier and
 * endpoints the platform file gives it.  The netmap and SimGrid have the
 * same links (SimGrid's internal "__loopback__" aside, which the netmap
 * has only where a host has no loopback of its own).  Each platform runs
 * in a forked child (Check's fork mode): SimGrid loads one platform per
 * process.
 *
 * Also: the hierarchy view of every example (levels top first down to node
 * and core, counts that nest, every node's index in range and consistent
 * with the level above), and PERCS's and Dragonfly's two-tier projection
 * equal to the two-tier view they had before the hierarchy (issue 27: their
 * results must not move). */
#include "platforms/platform.h"
#include "platforms/two_tier_net.h"
#include "sim/contracts/tempdir.h"
#include "sim/drivers/collective.h"
#include "sim/engine/sg_routes.h"
#include "tests/lib/algos.h"
#include "tests/lib/platform_specs.h"

#include <check.h>
#include <glib/gstdio.h>
#include <string.h>

static const char *const extra_specs[] = {"percs:5,4,2", "dragonfly:5,3,2,2,1", "percs:8,8,1/lat=50ns,l2=5GBps", NULL};

static const char *spec_at(int i)
{
  size_t n = N_TEST_PLATFORMS;
  return (size_t)i < n ? TEST_PLATFORMS[i] : extra_specs[(size_t)i - n];
}

static int spec_count(void) { return (int)(N_TEST_PLATFORMS + g_strv_length((char **)extra_specs)); }

static cs_platform *open_platform(const char *spec)
{
  GError *err = NULL;
  cs_platform *p = cs_platform_parse(spec, &err);
  ck_assert_msg(p != NULL, "%s: %s", spec, err ? err->message : "?");
  ck_assert_msg(cs_platform_resolve(p, cs_platform_slots(p), &err), "%s: %s", spec, err ? err->message : "?");
  return p;
}

typedef struct both {
  cs_platform *p;
  cs_netmap *m;
  cs_routes *r;
  char *xml;
  int64_t *sg_to_map; /* SimGrid's link id -> netmap id (-1: none) */
} both;

static bool open_both(both *b, const char *spec)
{
  memset(b, 0, sizeof *b);
  b->p = open_platform(spec);
  GError *err = NULL;
  b->m = cs_platform_netmap(b->p, &err);
  if (!b->m) {
    g_clear_error(&err);
    return false; /* family without a netmap yet */
  }
  ck_assert_msg(cs_platform_write_temp(b->p, &b->xml, &err), "%s: %s", spec, err ? err->message : "?");
  cs_engine_config c;
  cs_engine_config_defaults(&c);
  c.platform_file = b->xml;
  c.quiet = 1;
  c.cores = b->p->cores;
  b->r = cs_routes_open(&c, b->p->nodes, NULL, &err);
  ck_assert_msg(b->r, "%s: %s", spec, err ? err->message : "?");
  int64_t n = cs_routes_nlinks(b->r);
  b->sg_to_map = g_new(int64_t, n);
  for (int64_t l = 0; l < n; l++)
    b->sg_to_map[l] = cs_netmap_link_id(b->m, cs_routes_link_name(b->r, l));
  return true;
}

static void close_both(both *b)
{
  if (b->r)
    cs_routes_close(b->r);
  cs_netmap_free(b->m);
  if (b->xml)
    cs_tempfile_remove(b->xml);
  g_free(b->xml);
  g_free(b->sg_to_map);
  cs_platform_free(b->p);
}

static void check_link(const both *b, const char *spec, int64_t sg)
{
  int64_t id = b->sg_to_map[sg];
  const char *name = cs_routes_link_name(b->r, sg);
  if (id < 0 && cs_routes_link_internal(b->r, sg))
    return; /* SimGrid's own loopback, which no route of this platform uses */
  ck_assert_msg(id >= 0, "%s: SimGrid's link %s is not in the netmap", spec, name);
  ck_assert_msg(cs_netmap_link_internal(b->m, id) == (bool)cs_routes_link_internal(b->r, sg), "%s: %s internal?",
                spec, name);
  ck_assert_msg(b->m->ops->link_bandwidth(b->m, id) == cs_routes_link_bandwidth(b->r, sg),
                "%s: %s bandwidth %.17g, SimGrid %.17g", spec, name, b->m->ops->link_bandwidth(b->m, id),
                cs_routes_link_bandwidth(b->r, sg));
  ck_assert_msg(b->m->ops->link_latency(b->m, id) == cs_routes_link_latency(b->r, sg),
                "%s: %s latency %.17g, SimGrid %.17g", spec, name, b->m->ops->link_latency(b->m, id),
                cs_routes_link_latency(b->r, sg));
  const char *file_tier = cs_routes_link_tier(b->r, sg);
  if (strcmp(file_tier, "?") != 0) /* the file names it (a tier property) */
    ck_assert_msg(strcmp(cs_netmap_link_tier(b->m, id), file_tier) == 0, "%s: %s tier %s, the file says %s", spec,
                  name, cs_netmap_link_tier(b->m, id), file_tier);
  GString *src = g_string_new(NULL), *dst = g_string_new(NULL);
  if (b->m->ops->link_ends(b->m, id, src, dst) && strcmp(cs_routes_link_src(b->r, sg), "?") != 0) {
    ck_assert_msg(strcmp(src->str, cs_routes_link_src(b->r, sg)) == 0, "%s: %s leaves %s, the file says %s", spec,
                  name, src->str, cs_routes_link_src(b->r, sg));
    ck_assert_msg(strcmp(dst->str, cs_routes_link_dst(b->r, sg)) == 0, "%s: %s reaches %s, the file says %s", spec,
                  name, dst->str, cs_routes_link_dst(b->r, sg));
  }
  g_string_free(src, TRUE);
  g_string_free(dst, TRUE);
}

static void check_route(both *b, const char *spec, cs_route_buf *buf, int64_t x, int64_t y)
{
  const int32_t *mine, *sg;
  int nm = cs_netmap_route(b->m, buf, x, y, &mine);
  int ns = x == y ? cs_routes_get_self(b->r, x, &sg) : cs_routes_get_direct(b->r, x, y, &sg);
  ck_assert_msg(nm == ns, "%s: route %lld -> %lld has %d links in the netmap, %d in SimGrid", spec, (long long)x,
                (long long)y, nm, ns);
  for (int i = 0; i < nm; i++)
    ck_assert_msg(b->sg_to_map[sg[i]] == mine[i], "%s: route %lld -> %lld, hop %d: netmap %s, SimGrid %s", spec,
                  (long long)x, (long long)y, i, cs_netmap_link_name(b->m, mine[i]), cs_routes_link_name(b->r, sg[i]));
}

START_TEST(test_netmap_equals_simgrid)
{
  const char *spec = spec_at(_i);
  both b;
  if (!open_both(&b, spec)) {
    close_both(&b);
    return;
  }
  int64_t own = 0;
  for (int64_t l = 0; l < cs_routes_nlinks(b.r); l++) {
    check_link(&b, spec, l);
    own += !cs_routes_link_internal(b.r, l);
  }
  int64_t mine = 0;
  for (int64_t l = 0; l < b.m->nlinks; l++)
    mine += !cs_netmap_link_internal(b.m, l);
  ck_assert_msg(mine == own, "%s: the netmap has %lld links, SimGrid %lld", spec, (long long)mine, (long long)own);
  cs_route_buf buf = {0};
  for (int64_t x = 0; x < b.p->nodes; x++)
    for (int64_t y = 0; y < b.p->nodes; y++)
      check_route(&b, spec, &buf, x, y);
  cs_route_buf_clear(&buf);
  close_both(&b);
}
END_TEST

/* ---- the hierarchy ---- */

START_TEST(test_hierarchy_nests)
{
  const char *spec = spec_at(_i);
  cs_platform *p = open_platform(spec);
  cs_hierarchy h;
  cs_platform_hierarchy(p, &h);
  ck_assert_msg(h.nlevels >= 2 && h.node_level == h.nlevels - 2, "%s: levels", spec);
  ck_assert_str_eq(h.level[h.node_level].name, "node");
  ck_assert_str_eq(h.level[h.nlevels - 1].name, "core");
  ck_assert_int_eq(h.nodes, p->nodes);
  ck_assert_int_eq(h.cores, p->cores);
  for (int l = 1; l <= h.node_level; l++)
    ck_assert_msg(h.level[l].count >= h.level[l - 1].count, "%s: level %s has fewer entities than the one above",
                  spec, h.level[l].name);
  for (int64_t g = 0; g < h.nodes; g++)
    for (int l = 0; l < h.node_level; l++) {
      int64_t i = cs_hier_node_index(&h, g, l);
      ck_assert_msg(i >= 0 && i < h.level[l].count, "%s: node %lld at level %s: %lld", spec, (long long)g,
                    h.level[l].name, (long long)i);
      /* nodes of one entity lie in one entity of the level above */
      if (l > 0 && g > 0 && cs_hier_node_index(&h, g - 1, l) == i)
        ck_assert_int_eq(cs_hier_node_index(&h, g - 1, l - 1), cs_hier_node_index(&h, g, l - 1));
    }
  int64_t p_ranks = cs_platform_slots(p);
  int64_t *on_core = g_new0(int64_t, h.nodes * h.cores); /* ranks per (node, core) */
  for (int64_t r = 0; r < p_ranks; r++) {
    int64_t node = cs_hier_node_of(&h, r), core = cs_hier_rank_index(&h, r, h.nlevels - 1);
    ck_assert_int_eq(node, cs_platform_node_of(p, r));
    ck_assert_int_eq(cs_hier_rank_index(&h, r, h.node_level), node);
    ck_assert_msg(core >= 0 && core < h.cores, "%s: rank %lld on core %lld", spec, (long long)r, (long long)core);
    for (int l = 0; l < h.node_level; l++)
      ck_assert_int_eq(cs_hier_rank_index(&h, r, l), cs_hier_node_index(&h, node, l));
    on_core[node * h.cores + core]++;
  }
  for (int64_t i = 0; i < h.nodes * h.cores; i++) /* every core holds exactly one rank */
    ck_assert_int_eq(on_core[i], 1);
  g_free(on_core);
  cs_platform_free(p);
}
END_TEST

/* PERCS and Dragonfly: the projection is the two-tier view of seed 001. */
START_TEST(test_two_tier_projection_unchanged)
{
  const char *spec = spec_at(_i);
  cs_platform *p = open_platform(spec);
  if (strcmp(p->family->kind, "percs") != 0 && strcmp(p->family->kind, "dragonfly") != 0) {
    cs_platform_free(p);
    return;
  }
  cs_two_tier before = ((const cs_net *)p->data)->tt, now; /* the view the families gave before */
  cs_hierarchy h;
  cs_platform_hierarchy(p, &h);
  cs_hier_two_tier(&h, &now);
  ck_assert_int_eq(now.sn, before.sn);
  ck_assert_int_eq(now.nps, before.nps);
  ck_assert_int_eq(now.cpn, before.cpn);
  ck_assert_int_eq(now.p, before.p);
  for (int64_t a = 0; a < now.sn; a++)
    for (int64_t c = 0; c < now.sn; c++)
      if (a != c) {
        ck_assert_int_eq(cs_tt_gateway(&now, a, c), cs_tt_gateway(&before, a, c));
        ck_assert_int_eq(cs_tt_landing(&now, a, c), cs_tt_landing(&before, a, c));
      }
  for (int64_t r = 0; r < now.p; r++)
    ck_assert_int_eq(cs_tt_node_of(&now, r), cs_tt_node_of(&before, r));
  cs_platform_free(p);
}
END_TEST

/* The untimed path (--links, --per-link) routes a collective without ever
 * starting SimGrid (issue 27), and its traffic adds up: the bytes on the
 * links of each tier are the bytes x hops of the routes. */
START_TEST(test_untimed_links_never_load_simgrid)
{
  const char *spec = spec_at(_i);
  cs_platform *p = open_platform(spec);
  cs_engine_config ec;
  cs_engine_config_defaults(&ec);
  cs_coll_options o = {.links = true, .quiet = true, .gamma = 1e-10};
  GError *err = NULL;
  cs_coll_session *s = cs_coll_session_open(p, &o, &ec, &err);
  ck_assert_msg(s, "%s: %s", spec, err ? err->message : "?");
  cs_coll_item it = {.algo = ALGO_binomial_scatter, .size = 1024};
  cs_coll_outputs out = {.per_link = g_string_new(NULL)};
  cs_record *r = cs_coll_run(s, &it, &out, &err);
  ck_assert_msg(r, "%s: %s", spec, err ? err->message : "?");
  ck_assert_msg(cs_engine_loaded_platform() == NULL, "%s: the untimed run loaded SimGrid", spec);
  ck_assert_msg(out.per_link->len > 0, "%s: no per-link CSV", spec);
  g_string_free(out.per_link, TRUE);
  cs_record_free(r);
  cs_coll_session_close(s);
  cs_platform_free(p);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("netmap");
  TCase *tc = tcase_create("netmap");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_netmap_equals_simgrid, 0, spec_count());
  tcase_add_loop_test(tc, test_hierarchy_nests, 0, spec_count());
  tcase_add_loop_test(tc, test_two_tier_projection_unchanged, 0, spec_count());
  tcase_add_loop_test(tc, test_untimed_links_never_load_simgrid, 0, spec_count());
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
