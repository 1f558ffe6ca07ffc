/* `collsim mcmc`: seed 004's MCMC load-balancing benchmark (Section 4.2).
 *   collsim mcmc --platform torus:8x16x16/4 -n 8192 --balance async|none|collective [--interval 16]
 *   collsim mcmc --list
 * Runs one balancing mode (algorithms/mcmc/) in SimGrid and reports the
 * execution time beside the ideal and baseline times, and the regroupings
 * per process (sim/drivers/mcmc_run.c).  Bad input: one message, exit 2. */
#include "sim/cli/columns.h"
#include "sim/cli/commands.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/tempdir.h"
#include "sim/drivers/mcmc_run.h"

#include <stdio.h>
#include <string.h>

/* Without a platform: the paper's two BG/P racks, torus:auto sized for
 * DEFAULT_N ranks (8x16x16, 4 cores a node). */
#define DEFAULT_PLATFORM "torus:8x16x16/4"
#define DEFAULT_N 8192

typedef struct mcmc_opts {
  char *balance, *create, *rebuild; /* freed by cs_cli_free */
  int64_t n, g, interval, s_mult, s_mod, fail_rank;
  double t_item, jitter, fail_at, detect;
  bool list, list_columns;
} mcmc_opts;

static const char *const creates[] = {"intercomm", "direct", NULL};
static const char *const rebuilds[] = {"intercomm", "direct", "parent", NULL};

static void list_modes(void)
{
  printf("%-11s %s\n", "balance", "description");
  for (size_t i = 0; i < cs_mcmc_balance_count(); i++)
    printf("%-11s %s\n", cs_mcmc_balance_at(i)->name, cs_mcmc_balance_at(i)->description);
}

static int check_shape(const cs_cli *c, const mcmc_opts *o, int64_t want, int64_t slots, int64_t *n)
{
  *n = want;
  if (*n > slots)
    return cs_cli_usage(c, "-n %lld exceeds the platform's %lld ranks", (long long)*n, (long long)slots);
  if (*n > (INT64_C(1) << 17))
    return cs_cli_usage(c, "-n %lld: at most 131072 processes", (long long)*n);
  if (o->g > *n)
    return cs_cli_usage(c, "--group-size %lld exceeds n = %lld", (long long)o->g, (long long)*n);
  if (o->fail_rank >= *n)
    return cs_cli_usage(c, "--fail-rank %lld is outside the world of %lld processes", (long long)o->fail_rank,
                        (long long)*n);
  return 0;
}

static int run_mcmc(const cs_cli *c, const mcmc_opts *o)
{
  GError *e = NULL;
  cs_mcmc_params prm = {.balance = cs_mcmc_balance_find(o->balance ? o->balance : "async")};
  prm.cfg = (cs_mcmc_config){.g = (int)o->g, .t_item = o->t_item, .s_mult = (int)o->s_mult,
                             .s_mod = (int)o->s_mod, .interval = (int)o->interval, .jitter = o->jitter,
                             .seed = c->seed, .create_impl = o->create ? o->create : "intercomm",
                             .fail_rank = (int)o->fail_rank, .fail_at = o->fail_at, .detect = o->detect,
                             .rebuild = o->rebuild ? o->rebuild : "intercomm"};
  if (o->fail_rank >= 0 && !o->balance)
    prm.balance = cs_mcmc_balance_find("none");
  cs_platform *p = cs_cli_platform(c, DEFAULT_PLATFORM, &e);
  char *xml = NULL, *desc = NULL;
  bool is_temp = false;
  bool chosen = c->platform || c->torus || c->net || c->cluster;
  int64_t want = o->n ? o->n : chosen ? 0 : DEFAULT_N;
  int rc = p && cs_platform_resolve(p, want, &e) ? 0 : cs_cli_fail(c, e);
  g_clear_error(&e);
  if (rc == 0)
    rc = check_shape(c, o, want ? want : cs_platform_slots(p), cs_platform_slots(p), &prm.cfg.n);
  if (rc == 0 && !(cs_platform_check_size(p, &e) && cs_cli_run_size(c, prm.cfg.n, &e) &&
                   cs_cli_procs_engine(c, &prm.procs, &e) && cs_cli_engine(c, p, 1e-6, 1e-6, &prm.engine, &e) &&
                   (prm.procs.native || cs_platform_xml_for_run(p, &xml, &is_temp, &e))))
    rc = cs_cli_fail(c, e);
  g_clear_error(&e);
  if (rc == 0) {
    prm.ranks_per_host = p->cores;
    desc = cs_platform_describe(p);
    prm.platform_desc = desc;
    prm.engine.platform_file = xml;
    prm.engine.quiet = c->quiet;
    if (!prm.procs.native && !cs_engine_load(&prm.engine, &e))
      rc = cs_cli_fail(c, e);
  }
  g_clear_error(&e);
  if (rc == 0) {
    if (!c->quiet)
      fprintf(stderr, "collsim mcmc: %s on %s (n = %lld) ...\n", prm.balance->name, desc, (long long)prm.cfg.n);
    cs_mcmc_result res;
    rc = cs_mcmc_bench_run(&prm, &res, &e);
    if (rc != 0)
      cs_cli_fail(c, e);
    else if ((rc = cs_cli_trace_write(c)) == 0) {
      cs_record *r = cs_mcmc_result_record(&prm, &res);
      rc = cs_cli_emit(c, &r, 1, cs_record_kind_csv(&cs_mcmc_record_kind), "collsim mcmc");
      cs_record_free(r);
    }
    cs_mcmc_result_clear(&res);
  }
  g_clear_error(&e);
  if (is_temp)
    cs_tempfile_remove(xml);
  g_free(xml);
  g_free(desc);
  cs_cli_engine_clear(&prm.engine);
  cs_platform_free(p);
  return rc;
}

int cs_mcmc_main(int argc, char **argv)
{
  mcmc_opts o = {.g = 4, .interval = 16, .s_mult = 10, .s_mod = 32, .t_item = 0.1, .fail_rank = -1, .fail_at = 1.5,
                 .detect = 0.01};
  const cs_opt opts[] = {
      {"balance", 0, CS_OPT_STRING, &o.balance, "MODE", "a balancing mode of --list: none, async (default), "
       "collective", 0, 0, 0, 0, NULL},
      {"n", 'n', CS_OPT_INT, &o.n, "N", "processes (default: every slot of the platform)", 1, INT64_C(1) << 31, 0, 0,
       NULL},
      {"group-size", 0, CS_OPT_INT, &o.g, "G", "initial walker group size (default 4)", 1, 1 << 20, 0, 0, NULL},
      {"interval", 0, CS_OPT_INT, &o.interval, "I", "collective: balance every I steps (default 16)", 1, 1 << 30, 0,
       0, NULL},
      {"t-item", 0, CS_OPT_QUANTITY, &o.t_item, "T", "one work item's time on one process (default 100ms)", 1e-9,
       1e6, CS_QTY_TIME, 1, NULL},
      {"s-mult", 0, CS_OPT_INT, &o.s_mult, "A", "chain of the group led by R: A x (R mod B) items (default 10)", 0,
       1 << 20, 0, 0, NULL},
      {"s-mod", 0, CS_OPT_INT, &o.s_mod, "B", "see --s-mult (default 32)", 1, 1 << 20, 0, 0, NULL},
      {"jitter", 0, CS_OPT_QUANTITY, &o.jitter, "J", "relative per-step timing noise, uniform in [-J, J] (default 0)",
       0, 0.5, CS_QTY_NUMBER, 1, NULL},
      {"create", 0, CS_OPT_CHOICE, &o.create, "IMPL", "async: intercomm (Algorithm 1, default) or direct (Section "
       "5.1)", 0, 0, 0, 0, creates},
      {"fail-rank", 0, CS_OPT_INT, &o.fail_rank, "R", "this process fails (Section 2.1; with --balance none)", 0,
       INT64_C(1) << 31, 0, 0, NULL},
      {"fail-at", 0, CS_OPT_QUANTITY, &o.fail_at, "T", "when it fails (default 1.5s)", 0, 1e6, CS_QTY_TIME, 1,
       NULL},
      {"detect", 0, CS_OPT_QUANTITY, &o.detect, "D", "the failure detector's delay (default 10ms)", 0, 1e3,
       CS_QTY_TIME, 1, NULL},
      {"rebuild", 0, CS_OPT_CHOICE, &o.rebuild, "HOW", "after a failure: intercomm (Algorithm 1, default), direct "
       "or parent (MPI_Comm_create: deadlocks)", 0, 0, 0, 0, rebuilds},
      {"list", 0, CS_OPT_FLAG, &o.list, NULL, "list the balancing modes and exit", 0, 0, 0, 0, NULL},
      {"list-columns", 0, CS_OPT_FLAG, &o.list_columns, NULL, CS_LIST_COLUMNS_HELP, 0, 0, 0, 0, NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  cs_cli c;
  int rc = cs_cli_parse(&c, "mcmc", CS_CLI_OUTPUT | CS_CLI_ENGINE | CS_CLI_PLATFORM | CS_CLI_SEED | CS_CLI_TRACE | CS_CLI_NATIVE,
                        opts, "",
                        "the MCMC load-balancing benchmark of seed 004 (Section 4.2): none, async or collective",
                        "Example: collsim mcmc --platform torus:8x16x16/4 -n 8192 --balance async --format json",
                        argc, argv);
  static const cs_opt_rule rules[] = {
      {"interval", "balance=collective"},
      {"create", "balance!=none,collective"},
      {"fail-rank", "balance!=async,collective"}, /* the balancing protocols have no failure handling */
      {"fail-at detect rebuild", "+fail-rank"},
      {CS_NATIVE_REFUSES " fail-rank", "engine!=native"}, /* the native engine models no failure */
      {"loggops", "engine=native"},
      {NULL, NULL},
  };
  if (rc == 0)
    rc = cs_cli_check_rules(&c, rules, NULL);
  if (rc == 0 && c.rest[0])
    rc = cs_cli_usage(&c, "unexpected argument '%s'", c.rest[0]);
  if (rc == 0 && o.balance && !cs_mcmc_balance_find(o.balance))
    rc = cs_cli_usage(&c, "unknown balancing mode '%s' (collsim mcmc --list)", o.balance);
  if (rc == 0 && o.list_columns)
    rc = cs_cli_list_columns(&c);
  else if (rc == 0 && o.list)
    list_modes();
  else if (rc == 0)
    rc = run_mcmc(&c, &o);
  cs_cli_free(&c);
  return rc;
}
