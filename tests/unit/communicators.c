/* Every group-map representation under every communicator-creation protocol
 * (issue 25: leader create crashed on the first SELECT of a BWT map, and no
 * test had made a communicator of that representation).
 *
 * The representations are read from the registry (algorithms/groupmaps/
 * registry.c): each one, and wtr+X for every set representation X; the
 * protocols from the protocol registry (algorithms/communicators/
 * registry.c): split, create and create-group, each implementation, the
 * code `collsim comm split|create|create-group --impl I --map R` runs.
 * Maps shared per OS process and not (--no-share) for the protocols that
 * share them.  A new representation or protocol is covered without editing
 * this file.
 *
 * One simulated run per (representation, protocol, sharing) on cpm:4,3,2
 * (24 proclets, 6 OS processes, 2 machines): three disjoint groups, created
 * at once, each spread over several OS processes and both machines:
 *   an increasing progression, an increasing irregular set, and an
 *   unordered set;
 * of them, those the representation can hold (cs_gm_create says; every one
 * can hold the progression, which is asserted), plus a proclet in none.
 * Split gives each group a colour and its members keys in group order.
 * Every proclet checks, inside the run:
 *  - the creation succeeded; a member got a communicator, a non-member none;
 *  - its rank is its position in the group, the size the group's;
 *  - the map is of the representation asked for;
 *  - for every group rank g, the communicator's world rank of g (SELECT,
 *    with its cache) is the group's g-th member and the group rank of that
 *    member is g; a non-member's world rank has no group rank; the bulk
 *    decode gives the member list;
 *  - point to point in the new communicator: each member sends its world
 *    rank to the next group rank and receives the previous one's. */
#include "algorithms/communicators/protocol.h"
#include "platforms/platform.h"
#include "sim/contracts/groupmap_strategy.h"
#include "sim/contracts/transport.h"
#include "sim/engine/sg_engine.h"
#include "tests/lib/rank_failures.h"

#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#define PLATFORM "cpm:4,3,2"
#define WORLD 24
#define NONMEMBER 17 /* in no group */
#define RING_TAG 11

/* World ranks in group order.  Disjoint; together all ranks but NONMEMBER. */
static const cs_wid progression[] = {0, 3, 6, 9, 12, 15, 18, 21};
static const cs_wid irregular[] = {1, 2, 5, 10, 11, 16, 23};
static const cs_wid unordered[] = {22, 4, 13, 7, 19, 8, 20, 14};
static const struct {
  const cs_wid *w;
  int64_t m;
} candidates[] = {{progression, G_N_ELEMENTS(progression)},
                  {irregular, G_N_ELEMENTS(irregular)},
                  {unordered, G_N_ELEMENTS(unordered)}};

/* ------------------------------------------------------- the cases ---- */

typedef struct rep_case {
  char *map;
  const cs_comm_protocol *proto;
  bool share;
} rep_case;

static GArray *cases; /* rep_case, made by main before the suite runs */

/* Every name --map accepts for a representation: the registry's, and the
 * permutation representation composed with each set representation. */
static GPtrArray *representation_names(void)
{
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  for (size_t i = 0; i < cs_gm_rep_count(); i++)
    g_ptr_array_add(names, g_strdup(cs_gm_rep_at(i)->name));
  for (size_t i = 0; i < cs_gm_rep_count(); i++)
    if (cs_gm_rep_at(i)->kind == CS_GM_SET)
      g_ptr_array_add(names, g_strdup_printf("%s+%s", cs_perm_rep_wtr()->name, cs_gm_rep_at(i)->name));
  return names;
}

static void make_cases(void)
{
  cases = g_array_new(FALSE, FALSE, sizeof(rep_case));
  GPtrArray *names = representation_names();
  for (guint r = 0; r < names->len; r++)
    for (size_t i = 0; i < cs_comm_protocol_count(); i++) {
      const cs_comm_protocol *proto = cs_comm_protocol_at(i);
      for (int share = proto->shares_maps ? 1 : 0; share >= 0; share--) {
        rep_case c = {g_strdup(g_ptr_array_index(names, r)), proto, share == 1};
        g_array_append_val(cases, c);
      }
    }
  g_ptr_array_free(names, TRUE); /* the cases own copies */
}

/* ----------------------------------------------- what a run is given ---- */

/* The run's inputs and what the proclets record (SimGrid runs them one at
 * a time in this forked test's address space). */
static struct {
  const rep_case *tc;
  cs_world *world;
  cs_ctxids *ids;
  cs_comm_request rq;
  const cs_wid *groups[G_N_ELEMENTS(candidates)];
  int64_t sizes[G_N_ELEMENTS(candidates)];
  int ngroups;
  int32_t group_of[WORLD], group_rank[WORLD], color[WORLD], key[WORLD];
  GPtrArray *failures; /* the first few, as text */
  int failed, finished;
} R;

#define fail_at(rank, ...) rank_failure(R.failures, &R.failed, rank, __VA_ARGS__)

static bool holds(const char *map, const cs_wid *w, int64_t m)
{
  cs_gm_limits lim = cs_gm_limits_default();
  GError *e = NULL;
  cs_groupmap *gm = cs_gm_create(map, w, m, WORLD, &lim, &e);
  g_clear_error(&e);
  cs_gm_free(gm);
  return gm != NULL;
}

/* The groups map can hold, their members' group and rank, and split's
 * colours (one per group) and keys (positions in the group). */
static void choose_groups(const char *map)
{
  for (int r = 0; r < WORLD; r++) {
    R.group_of[r] = R.group_rank[r] = R.color[r] = CS_COLOR_UNDEFINED;
    R.key[r] = 0;
  }
  ck_assert_msg(holds(map, progression, G_N_ELEMENTS(progression)), "%s cannot hold an increasing progression",
                map);
  for (size_t i = 0; i < G_N_ELEMENTS(candidates); i++) {
    if (!holds(map, candidates[i].w, candidates[i].m))
      continue;
    int g = R.ngroups++;
    R.groups[g] = candidates[i].w;
    R.sizes[g] = candidates[i].m;
    for (int64_t j = 0; j < candidates[i].m; j++) {
      cs_wid w = candidates[i].w[j];
      R.group_of[w] = R.color[w] = g;
      R.group_rank[w] = R.key[w] = (int32_t)j;
    }
  }
}

static void make_request(const rep_case *tc)
{
  cs_world_config wc;
  cs_world_config_defaults(&wc);
  wc.n = WORLD;
  wc.per_process = 4;
  wc.per_machine = 3;
  wc.share = tc->share;
  wc.map = tc->map;
  R.world = cs_world_new(&wc);
  R.ids = cs_ctxids_new(tc->proto->scheme, WORLD, 21, 6); /* the CLI's default widths */
  choose_groups(tc->map);
  R.rq = (cs_comm_request){.op = tc->proto->op, .ids = R.ids, .tag_base = 1000};
  if (tc->proto->op == CS_COMM_SPLIT) {
    R.rq.color = R.color;
    R.rq.key = R.key;
    return;
  }
  R.rq.groups = R.groups;
  R.rq.group_size = R.sizes;
  R.rq.ngroups = R.ngroups;
  R.rq.group_of = R.group_of;
  R.rq.group_rank = R.group_rank;
}

/* ------------------------------------------------- in the proclets ---- */

static void check_translation(cs_proc *p, const cs_comm *c, const cs_wid *grp, int64_t m)
{
  int me = cs_rank(p);
  for (int g = 0; g < m; g++) {
    int w = cs_comm_world_rank(p, c, g);
    if (w != (int)grp[g])
      fail_at(me, "world rank of group rank %d is %d, expected %u", g, w, grp[g]);
    int back = cs_comm_group_rank(p, c, (int)grp[g]);
    if (back != g)
      fail_at(me, "group rank of world rank %u is %d, expected %d", grp[g], back, g);
  }
  if (cs_comm_group_rank(p, c, NONMEMBER) != -1)
    fail_at(me, "world rank %d, in no group, has a group rank", NONMEMBER);
  cs_wid *all = g_new(cs_wid, (gsize)m);
  cs_comm_world_ranks(p, c, all);
  if (memcmp(all, grp, sizeof(cs_wid) * (size_t)m) != 0)
    fail_at(me, "the bulk decode is not the member list");
  g_free(all);
}

static void check_ring(cs_proc *p, const cs_comm *c, const cs_wid *grp, int64_t m)
{
  int me = cs_rank(p);
  int next = (int)((c->rank + 1) % m), prev = (int)((c->rank + m - 1) % m);
  int32_t mine = me;
  cs_comm_send(p, c, next, RING_TAG, &mine, sizeof mine, sizeof mine);
  cs_msg *msg = cs_comm_recv(p, c, prev, RING_TAG);
  int32_t got = -1;
  if (msg->data && msg->bytes == sizeof got)
    memcpy(&got, msg->data, sizeof got);
  if (got != (int32_t)grp[prev] || msg->src != (int)grp[prev])
    fail_at(me, "from group rank %d got %d (sent by %d), expected world rank %u", prev, got, msg->src, grp[prev]);
  cs_msg_free(p, msg);
}

static void check_member(cs_proc *p, const cs_comm *c, int g)
{
  int me = cs_rank(p);
  const cs_wid *grp = R.groups[g];
  int64_t m = R.sizes[g];
  if (c->size != m || c->rank != R.group_rank[me]) {
    fail_at(me, "rank %d of %d, expected %d of %lld", c->rank, c->size, R.group_rank[me], (long long)m);
    return;
  }
  if (!c->map || strcmp(cs_shared_map_rep(c->map), R.tc->map) != 0) {
    fail_at(me, "map is %s, expected %s", c->map ? cs_shared_map_rep(c->map) : "the identity", R.tc->map);
    return;
  }
  check_translation(p, c, grp, m);
  check_ring(p, c, grp, m);
}

static void proclet_main(cs_proc *p, void *user)
{
  (void)user;
  int me = cs_rank(p);
  cs_proc_join_mem_pool(p, cs_world_mem_pool(R.world, cs_world_process_of(R.world, me)));
  cs_comm *world = cs_comm_world(p, R.world);
  cs_comm_request rq = R.rq;
  cs_comm *c = NULL;
  cs_create_status st = R.tc->proto->run(p, world, &rq, &c);
  int g = R.group_of[me];
  if (st != CS_CREATE_OK)
    fail_at(me, "creation failed (status %d)", (int)st);
  else if (g < 0 && c)
    fail_at(me, "in no group but got a communicator");
  else if (g >= 0 && !c)
    fail_at(me, "a member of group %d got no communicator", g);
  else if (c)
    check_member(p, c, g);
  cs_comm_free(p, c);
  cs_comm_free(p, world);
  R.finished++;
  cs_serve(p);
}

/* ------------------------------------------------------------ a run ---- */

static void simulate(void)
{
  GError *err = NULL;
  cs_platform *pf = cs_platform_parse(PLATFORM, &err);
  ck_assert_msg(pf && cs_platform_resolve(pf, 0, &err), "%s", err ? err->message : "?");
  ck_assert_int_eq(cs_platform_slots(pf), WORLD);
  char *dir = g_dir_make_tmp("check-comm-reps-XXXXXX", NULL);
  ck_assert_ptr_nonnull(dir);
  char *path = g_build_filename(dir, "platform.xml", NULL);
  ck_assert_msg(cs_platform_write_file(pf, path, &err), "%s", err ? err->message : "?");
  cs_engine_config ec;
  cs_engine_config_defaults(&ec);
  ec.platform_file = path;
  ec.n = WORLD;
  ec.cores = pf->cores;
  ec.shared_cpu = 1;
  ec.quiet = 1;
  if (pf->model)
    ec.model = pf->model;
  if (!isnan(pf->o_send))
    ec.o_send = ec.o_recv = pf->o_send;
  ec.local_copy_bw = pf->local_copy_bw;
  ec.host_channels = pf->host_channels;
  cs_proc *procs = g_new0(cs_proc, WORLD);
  ck_assert_msg(cs_engine_run(&ec, procs, proclet_main, NULL, &err), "%s", err ? err->message : "?");
  for (int r = 0; r < WORLD; r++)
    cs_proc_release(&procs[r]);
  g_free(procs);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
  cs_platform_free(pf);
}

/* What the proclets recorded, and whether they all got to the end. */
static void assert_all_passed(const rep_case *tc)
{
  char *what = g_strdup_printf("comm %s --impl %s --map %s%s", cs_comm_op_name(tc->proto->op), tc->proto->impl,
                               tc->map, tc->share ? "" : " --no-share");
  char *kept = rank_failures_text(R.failures);
  ck_assert_msg(R.failed == 0, "%s: %d failures:%s", what, R.failed, kept);
  g_free(kept);
  ck_assert_msg(cs_engine_retired() == WORLD && R.finished == WORLD, "%s: %d of %d proclets finished", what,
                R.finished, WORLD);
  g_free(what);
}

START_TEST(every_representation_every_protocol)
{
  const rep_case *tc = &g_array_index(cases, rep_case, _i);
  memset(&R, 0, sizeof R);
  R.tc = tc;
  R.failures = g_ptr_array_new_with_free_func(g_free);
  make_request(tc);
  simulate();
  assert_all_passed(tc);
  g_ptr_array_free(R.failures, TRUE);
  cs_ctxids_free(R.ids);
  cs_world_free(R.world);
}
END_TEST

/* The cases cover the registries: every representation name with every
 * protocol (so a registry that came back empty cannot pass unnoticed). */
START_TEST(cases_cover_the_registries)
{
  ck_assert_uint_gt(cs_gm_rep_count(), 0);
  ck_assert_uint_gt(cs_comm_protocol_count(), 0);
  bool ops[3] = {false, false, false};
  for (guint i = 0; i < cases->len; i++)
    ops[g_array_index(cases, rep_case, i).proto->op] = true;
  ck_assert_msg(ops[CS_COMM_SPLIT] && ops[CS_COMM_CREATE] && ops[CS_COMM_CREATE_GROUP],
                "split, create and create-group are all registered");
  for (size_t r = 0; r < cs_gm_rep_count(); r++) {
    int seen = 0;
    for (guint i = 0; i < cases->len; i++)
      seen += strcmp(g_array_index(cases, rep_case, i).map, cs_gm_rep_at(r)->name) == 0;
    ck_assert_msg(seen >= (int)cs_comm_protocol_count(), "%s: %d cases for %d protocols", cs_gm_rep_at(r)->name,
                  seen, (int)cs_comm_protocol_count());
  }
}
END_TEST

int main(void)
{
  make_cases();
  Suite *s = suite_create("comm_reps");
  TCase *tc = tcase_create("representations");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, cases_cover_the_registries);
  tcase_add_loop_test(tc, every_representation_every_protocol, 0, (int)cases->len);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  for (guint i = 0; i < cases->len; i++)
    g_free(g_array_index(cases, rep_case, i).map);
  g_array_free(cases, TRUE);
  return failed ? 1 : 0;
}
