/* The cost contract (sim/contracts/cost.h): every registered collective
 * algorithm declares its own cost model, and its timed simulation stays
 * within FACTOR of it, both ways, on shapes free of contention.
 *
 * Shapes: contention-free, i.e. no link carries two messages of one step
 * except the links the models count (a node's port; the link between two
 * nodes or two supernodes that a shift or an exchange loads):
 *   percs:1,32,1       one supernode of 32 single-core nodes, a link for each
 *                      ordered pair of nodes: no two messages share a link;
 *   dragonfly:9,1,8,1  9 groups of one router with one node: every route is
 *                      terminal link, global link, terminal link, so only a
 *                      node's own terminal links (its port) are shared;
 *   percs:4,4,1        4 supernodes of 4 single-core nodes, a link for each
 *                      pair of nodes and of supernodes: the two tiers, a
 *                      supernode's L2 link shared by its shifts and exchanges.
 * Sizes: a block of 8 bytes (latency) and of 256 KiB (bandwidth) per rank
 * (alltoall: per pair of ranks); bcast, reduce and allreduce take p blocks,
 * barrier none.  Overheads 0 (collsim collective's
 * default), and on percs:1,32,1 also --o-send 1us --o-recv 2us.  The
 * "script" algorithms run the linear tree (collsim tree-script --from linear)
 * for the shape's p.  FACTOR 1.5: measured sim/model 0.77 to 1.24.
 *
 * Each algorithm uses its own model: every algorithm of a collective has its
 * own cost function and formula, and two algorithms whose simulated times
 * differ by more than 10% on a case have different model values there.
 * The JSON's cost_formula is the algorithm's, and `collsim collective
 * --list --models` (docs/cost-models.md, scripts/gen-docs.sh) lists every
 * algorithm's formula. */
#include "sim/contracts/schedule.h"
#include "tests/lib/harness.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FACTOR 1.5
#define SIM_DIFFERS 1.1

typedef struct shape {
  const char *spec;
  int p;
} shape;

static const shape shapes[] = {{"percs:1,32,1", 32}, {"dragonfly:9,1,8,1", 9}, {"percs:4,4,1", 16}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static const long long blocks[] = {8, 256 * 1024};
#define NBLOCKS (sizeof blocks / sizeof blocks[0])

/* One case: a shape, a block, with or without overheads. */
typedef struct run_case {
  const shape *s;
  long long block;
  bool overheads;
} run_case;

#define NCASES (NSHAPES * NBLOCKS + NBLOCKS)

static run_case case_at(size_t i)
{
  if (i < NSHAPES * NBLOCKS)
    return (run_case){&shapes[i / NBLOCKS], blocks[i % NBLOCKS], false};
  return (run_case){&shapes[0], blocks[i - NSHAPES * NBLOCKS], true};
}

static char *tmpdir;

static void setup(void) { tmpdir = harness_tmpdir_new(); }

static void teardown(void)
{
  harness_tmpdir_remove(tmpdir);
  tmpdir = NULL;
}

/* The linear tree script for p ranks, written once into tmpdir. */
static char *script_for(int p)
{
  char name[32];
  snprintf(name, sizeof name, "linear-%d.yaml", p);
  char *path = harness_path(tmpdir, name), n[16];
  if (g_file_test(path, G_FILE_TEST_EXISTS))
    return path;
  snprintf(n, sizeof n, "%d", p);
  harness_result r;
  harness_runl(&r, "tree-script", "--from", "linear", "-n", n, "-o", path, NULL);
  ck_assert_msg(r.exit_status == 0, "tree-script: %s", r.err);
  harness_result_clear(&r);
  return path;
}

typedef struct timed {
  double sim, model;
} timed;

/* A timed run of algorithm a on case c; checks its cost_formula. */
static timed run_timed(const cs_coll_algo *a, const run_case *c)
{
  bool per_rank = cs_coll_per_rank(a->coll);
  char size[32], *script = strcmp(a->name, "script") == 0 ? script_for(c->s->p) : NULL;
  snprintf(size, sizeof size, "%lld", per_rank ? c->block : c->block * c->s->p);
  GPtrArray *args = g_ptr_array_new();
  const char *fixed[] = {"collective", "--net", c->s->spec, "--coll", cs_coll_name(a->coll), "--algo", a->name,
                         "--timed", "--format", "json", "-q", per_rank ? "--block" : "--bytes", size};
  size_t nfixed = G_N_ELEMENTS(fixed) - (cs_coll_sized(a->coll) ? 0 : 2); /* barrier: no size */
  for (size_t i = 0; i < nfixed; i++)
    g_ptr_array_add(args, (char *)fixed[i]);
  const char *extra[] = {"--o-send", "1us", "--o-recv", "2us"};
  for (size_t i = 0; c->overheads && i < G_N_ELEMENTS(extra); i++)
    g_ptr_array_add(args, (char *)extra[i]);
  if (script) {
    g_ptr_array_add(args, "--script");
    g_ptr_array_add(args, script);
  }
  g_ptr_array_add(args, NULL);
  harness_result r;
  harness_run(&r, (const char *const *)args->pdata);
  ck_assert_msg(r.exit_status == 0, "%s %s on %s: %s", cs_coll_name(a->coll), a->name, c->s->spec, r.err);
  timed t;
  ck_assert(harness_json_double(r.out, "sim_time_s", &t.sim) && harness_json_double(r.out, "cost_model_s", &t.model));
  char *want = g_strdup_printf("\"cost_formula\": \"%s\"", a->cost_formula);
  ck_assert_msg(strstr(r.out, want), "%s %s: the output does not name its formula", cs_coll_name(a->coll), a->name);
  g_free(want);
  harness_result_clear(&r);
  g_ptr_array_free(args, TRUE);
  g_free(script);
  return t;
}

static const char *case_text(const run_case *c, char *buf, size_t len)
{
  snprintf(buf, len, "%s, block %lld B%s", c->s->spec, c->block, c->overheads ? ", o_send 1 us, o_recv 2 us" : "");
  return buf;
}

/* Pairs whose models coincide on a case by the contract's level latencies
 * (cost.h: a level's latency is its longest route): on percs:4,4,1 the
 * binomial bcast's critical path 0-8-12-14-15 and the 4-chain bcast's levels
 * both cross two supernode and two node hops, a2 + a2 + a1 + a1 in both
 * models; the binomial's real supernode routes are shorter (x0.88 of its
 * model, the chain's x1.00). */
static bool models_may_coincide(const cs_coll_algo *a, const cs_coll_algo *b, const run_case *c)
{
  bool pair = (strcmp(a->name, "binomial") == 0 && strcmp(b->name, "chain") == 0) ||
              (strcmp(a->name, "chain") == 0 && strcmp(b->name, "binomial") == 0);
  return a->coll == CS_COLL_BCAST && pair && strcmp(c->s->spec, "percs:4,4,1") == 0;
}

/* The algorithms of collective _i: each within FACTOR of its own model on
 * every case; and where two of them differ in simulated time, so do their
 * models (but for models_may_coincide). */
START_TEST(test_simulated_within_factor_of_own_model)
{
  cs_coll coll = (cs_coll)_i;
  size_t n = 0;
  const cs_coll_algo *algo[32];
  for (size_t i = 0; i < cs_coll_algo_count(); i++)
    if (cs_coll_algo_at(i)->coll == coll && n < G_N_ELEMENTS(algo))
      algo[n++] = cs_coll_algo_at(i);
  ck_assert_int_gt(n, 0);
  for (size_t k = 0; k < NCASES; k++) {
    run_case c = case_at(k);
    timed t[32];
    char where[128];
    for (size_t i = 0; i < n; i++) {
      t[i] = run_timed(algo[i], &c);
      double ratio = t[i].sim / t[i].model;
      ck_assert_msg(ratio <= FACTOR && ratio >= 1 / FACTOR, "%s %s on %s: simulated %g s, its model %g s (x%.2f)",
                    cs_coll_name(coll), algo[i]->name, case_text(&c, where, sizeof where), t[i].sim, t[i].model,
                    ratio);
    }
    for (size_t i = 0; i < n; i++)
      for (size_t j = i + 1; j < n; j++)
        if (fmax(t[i].sim, t[j].sim) > SIM_DIFFERS * fmin(t[i].sim, t[j].sim) &&
            !models_may_coincide(algo[i], algo[j], &c))
          ck_assert_msg(t[i].model != t[j].model, "%s: %s and %s take different times on %s, same model %g s",
                        cs_coll_name(coll), algo[i]->name, algo[j]->name, case_text(&c, where, sizeof where),
                        t[i].model);
  }
}
END_TEST

/* Every algorithm declares a cost and a formula, and no two algorithms of
 * one collective share either. */
START_TEST(test_every_algorithm_has_its_own_model)
{
  for (size_t i = 0; i < cs_coll_algo_count(); i++) {
    const cs_coll_algo *a = cs_coll_algo_at(i);
    ck_assert_msg(a->cost && a->cost_formula && *a->cost_formula, "%s %s has no cost model", cs_coll_name(a->coll),
                  a->name);
    for (size_t j = 0; j < i; j++) {
      const cs_coll_algo *b = cs_coll_algo_at(j);
      if (b->coll != a->coll)
        continue;
      ck_assert_msg(a->cost != b->cost, "%s: %s uses %s's cost function", cs_coll_name(a->coll), a->name, b->name);
      ck_assert_msg(strcmp(a->cost_formula, b->cost_formula) != 0, "%s: %s and %s print the same formula",
                    cs_coll_name(a->coll), a->name, b->name);
    }
  }
}
END_TEST

/* `collsim collective --list --models` (docs/cost-models.md is made of it)
 * is the registry's: a row per algorithm, with its collective, its name
 * and its formula. */
START_TEST(test_models_listing_is_the_registry)
{
  harness_result r;
  harness_runl(&r, "collective", "--list", "--models", NULL);
  ck_assert_int_eq(r.exit_status, 0);
  for (size_t i = 0; i < cs_coll_algo_count(); i++) {
    const cs_coll_algo *a = cs_coll_algo_at(i);
    char *row = g_strdup_printf("| %s | %s | %s |\n", cs_coll_name(a->coll), a->name, a->cost_formula);
    ck_assert_msg(strstr(r.out, row), "collsim collective --list --models lacks the row %s", row);
    g_free(row);
  }
  harness_result_clear(&r);
}
END_TEST

static Suite *suite(void)
{
  Suite *s = suite_create("cost-model");
  TCase *own = tcase_create("own");
  tcase_add_test(own, test_every_algorithm_has_its_own_model);
  tcase_add_test(own, test_models_listing_is_the_registry);
  suite_add_tcase(s, own);
  TCase *timed_runs = tcase_create("timed");
  tcase_add_checked_fixture(timed_runs, setup, teardown);
  tcase_set_timeout(timed_runs, 600);
  tcase_add_loop_test(timed_runs, test_simulated_within_factor_of_own_model, 0, CS_NCOLLS);
  suite_add_tcase(s, timed_runs);
  return s;
}

int main(void)
{
  SRunner *r = srunner_create(suite());
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
