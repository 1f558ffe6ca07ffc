/* `collsim allreduce` (the benchmark of seed 002, Figure 4, on any platform;
 * the SMP clusters by default are what the paper measured) and `collsim
 * tree-script` (write a generated tree as an editable YAML script).  Bad
 * input: one message naming the problem, exit status 2, nothing written. */
#include "sim/cli/commands.h"
#include "algorithms/reduce_bcast_trees/tree_gen.h"
#include "sim/checks/tree_script_check.h"
#include "sim/cli/columns.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/input_path.h"
#include "sim/drivers/allreduce_bench.h"
#include "sim/drivers/tree_search.h"

#include <stdio.h>
#include <string.h>

typedef struct ar_opts {
  char *trees, *order, *write_script, *from, *out;
  int64_t n, iterations, groups, fanout, search_iterations;
  bool list, list_columns;
} ar_opts;

static const char *const orders[] = {"scripted", "arrival", NULL};

/* The result record's columns. */
enum {
  A_CLUSTER, A_CPU, A_TREES, A_ORDER, A_N, A_ITERATIONS, A_US, A_MESSAGES, A_INTERNODE, A_RESULT_OK, A_MODEL,
};

static const cs_column columns[] = {
    [A_CLUSTER] = {"cluster", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the platform's label"},
    [A_CPU] = {"cpu", CS_COL_TEXT, NULL, "", NULL, CS_COL_NO_CSV, "the platform's processor"},
    [A_TREES] = {"trees", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the tree script: a generator or a file"},
    [A_ORDER] = {"order", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "children served in scripted or arrival order"},
    [A_N] = {"n", CS_COL_INT, NULL, "processes", NULL, CS_COL_KEY, "processes"},
    [A_ITERATIONS] = {"iterations", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "allreduces timed"},
    [A_US] = {"us_per_allreduce", CS_COL_NUM, "%.6f", "us", NULL, 0, "simulated time of one allreduce"},
    [A_MESSAGES] = {"messages_per_allreduce", CS_COL_INT, NULL, "messages", NULL, 0, "messages of one allreduce"},
    [A_INTERNODE] = {"internode_messages_per_allreduce", CS_COL_INT, NULL, "messages", NULL, 0,
                     "messages of one allreduce between two nodes"},
    [A_RESULT_OK] = {"result_ok", CS_COL_BOOL, NULL, "", NULL, 0, "every process got the right sum"},
    [A_MODEL] = {"model", CS_COL_TEXT, NULL, "", NULL, CS_COL_NO_CSV, "SimGrid network model"},
};

const cs_record_kind cs_allreduce_record_kind = {"allreduce", "one Allreduce benchmark run", columns,
                                                 G_N_ELEMENTS(columns), NULL};

static void list_generators(void)
{
  printf("%-16s %s\n", "trees", "description");
  for (size_t i = 0; i < cs_tree_gen_count(); i++)
    printf("%-16s %s\n", cs_tree_gen_at(i)->name, cs_tree_gen_at(i)->summary);
  printf("%-16s %s\n", "FILE.yaml", "a tree script (see collsim tree-script)");
}

static bool looks_like_file(const char *s)
{
  return strchr(s, '/') || g_str_has_suffix(s, ".yaml") || g_str_has_suffix(s, ".yml");
}

static cs_ts_order order_of(const char *s) { return s && !strcmp(s, "arrival") ? CS_TS_ARRIVAL_ORDER : CS_TS_SCRIPTED_ORDER; }

/* A generator's script for n processes on platform p. */
static cs_tree_script *generate(const ar_opts *o, const char *name, const cs_platform *p, int n, GError **err)
{
  const cs_tree_gen *g = cs_tree_gen_find(name);
  if (!g) {
    cs_input_error(err, "unknown trees '%s' (see collsim allreduce --list, or give a FILE.yaml)", name);
    return NULL;
  }
  int *node_of = cs_allreduce_node_map(p, n);
  cs_tree_gen_params prm = {.n = n, .nodes = (int)p->nodes, .cores = p->cores, .node_of = node_of,
                            .groups_per_node = (int)o->groups, .fanout = (int)o->fanout, .order = order_of(o->order)};
  cs_tree_script *s = g->generate(&prm);
  g_free(node_of);
  GError *e = NULL;
  if (!s) {
    cs_input_error(err, "the %s generator refuses these parameters (n = %d, groups %lld, fanout %lld)", name, n,
                (long long)o->groups, (long long)o->fanout);
  } else if (!cs_ts_validate(s, &e)) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "generator %s made an invalid script: %s", name, e->message);
    g_error_free(e);
    cs_ts_free(s);
    s = NULL;
  }
  return s;
}

/* The script named by --trees / --from: a generator or a YAML file. */
static cs_tree_script *make_script(const ar_opts *o, const char *trees, const cs_platform *p, int n, bool n_given,
                                   GError **err)
{
  if (!looks_like_file(trees))
    return generate(o, trees, p, n, err);
  char *path = cs_input_path("--trees", trees, err);
  cs_tree_script *s = path ? cs_ts_load(path, err) : NULL;
  g_free(path);
  if (s && n_given && s->n != n) {
    cs_input_error(err, "%s is a script for n = %d, not -n %d", trees, s->n, n);
    cs_ts_free(s);
    return NULL;
  }
  if (s && o->order)
    s->order = order_of(o->order);
  return s;
}

static cs_record *result_record(const cs_platform *p, const cs_tree_script *s, const cs_allreduce_result *r,
                                const char *trees, int64_t iterations, const char *model)
{
  cs_record *c = cs_record_new();
  char *label = cs_platform_label(p);
  cs_col_str(c, &columns[A_CLUSTER], label);
  g_free(label);
  cs_col_str(c, &columns[A_CPU], p->cpu);
  cs_col_str(c, &columns[A_TREES], trees);
  cs_col_str(c, &columns[A_ORDER], s->order == CS_TS_ARRIVAL_ORDER ? "arrival" : "scripted");
  cs_col_i64(c, &columns[A_N], s->n);
  cs_col_i64(c, &columns[A_ITERATIONS], iterations);
  cs_col_num(c, &columns[A_US], r->us_per_allreduce);
  cs_col_i64(c, &columns[A_MESSAGES], r->messages_per_allreduce);
  cs_col_i64(c, &columns[A_INTERNODE], r->internode_messages_per_allreduce);
  cs_col_bool(c, &columns[A_RESULT_OK], r->result_ok);
  cs_col_str(c, &columns[A_MODEL], model);
  return c;
}

/* --trees best: the search, then the winner's script. */
static cs_tree_script *search_best(const cs_cli *c, const ar_opts *o, const cs_platform *p, int n,
                                   const cs_engine_config *ec, char **chosen, GError **err)
{
  cs_engine_config quiet = *ec;
  quiet.quiet = true;
  cs_trace_detach(&quiet); /* --trace records the run of the winner, not the trials */
  cs_tree_choice best;
  if (!cs_tree_search(p, n, (int)o->search_iterations, &quiet, c->quiet ? NULL : stderr, &best, err))
    return NULL;
  *chosen = cs_tree_choice_describe(&best);
  return cs_tree_choice_script(&best, p, n);
}

typedef struct ar_run {
  cs_platform *platform;
  cs_tree_script *script;
  cs_engine_config ec;
  char *trees; /* as reported */
} ar_run;

static bool prepare(const cs_cli *c, const ar_opts *o, ar_run *R, GError **err)
{
  if (!(R->platform = cs_cli_platform(c, NULL, err)))
    return false;
  int64_t slots = cs_platform_resolved(R->platform) ? cs_platform_slots(R->platform) : o->n;
  int n = (int)(o->n ? o->n : slots);
  if (!cs_platform_resolve(R->platform, n, err) || !cs_platform_check_size(R->platform, err))
    return false;
  if (o->groups > R->platform->cores)
    return cs_input_error(err, "--groups must be between 1 and the cores per node (%d)", R->platform->cores);
  if (!cs_cli_run_size(c, n, err) || !cs_cli_engine(c, R->platform, 0, 0, &R->ec, err))
    return false;
  R->ec.recv_window = 8;
  char *chosen = NULL;
  if (strcmp(o->trees, "best") == 0)
    R->script = search_best(c, o, R->platform, n, &R->ec, &chosen, err);
  else
    R->script = make_script(o, o->trees, R->platform, n, o->n != 0, err);
  R->trees = chosen ? g_strdup_printf("best: %s", chosen) : g_strdup(o->trees);
  g_free(chosen);
  return R->script != NULL;
}

static int run_allreduce(const cs_cli *c, const ar_opts *o)
{
  ar_run R = {0};
  GError *e = NULL;
  cs_allreduce_result r;
  int rc = 0;
  if (!prepare(c, o, &R, &e) || !cs_allreduce_run(R.platform, R.script, (int)o->iterations, &R.ec, &r, &e) ||
      (o->write_script && !cs_ts_save(R.script, o->write_script, &e))) {
    rc = cs_cli_fail(c, e);
  } else if ((rc = cs_cli_trace_write(c)) == 0) {
    cs_record *rec = result_record(R.platform, R.script, &r, R.trees, o->iterations, R.ec.model);
    rc = cs_cli_emit(c, &rec, 1, cs_record_kind_csv(&cs_allreduce_record_kind), "collsim allreduce");
    cs_record_free(rec);
    if (rc == 0 && !r.result_ok) {
      fprintf(stderr, "collsim allreduce: error: %lld wrong results\n", r.wrong_results);
      rc = 1;
    }
  }
  g_clear_error(&e);
  g_free(R.trees);
  cs_ts_free(R.script);
  cs_cli_engine_clear(&R.ec);
  cs_platform_free(R.platform);
  return rc;
}

int cs_allreduce_main(int argc, char **argv)
{
  ar_opts o = {.iterations = 1000, .groups = 1, .search_iterations = 50};
  const cs_opt opts[] = {
      {"trees", 't', CS_OPT_STRING, &o.trees, "NAME", "lam (default), linear, hierarchical, kary-node, best "
       "(search) or FILE.yaml", 0, 0, 0, 0, NULL},
      {"n", 'n', CS_OPT_INT, &o.n, "P", "processes (default: every core of the platform)", 1, G_MAXINT, 0, 0, NULL},
      {"iterations", 'i', CS_OPT_INT, &o.iterations, "I", "timed Allreduce operations (default 1000)", 0, 100000000,
       0, 0, NULL},
      {"order", 0, CS_OPT_CHOICE, &o.order, "ORDER", "receive order: scripted (LAM) or arrival (PastSet/PATHS)", 0,
       0, 0, 0, orders},
      {"groups", 0, CS_OPT_INT, &o.groups, "G", "hierarchical trees: groups per node (default 1)", 1, 1024, 0, 0,
       NULL},
      {"fanout", 0, CS_OPT_INT, &o.fanout, "K", "tree families with a degree: fan-out (default: the family's)", 1,
       G_MAXINT, 0, 0, NULL},
      {"search-iterations", 0, CS_OPT_INT, &o.search_iterations, "I", "--trees best: Allreduce operations per "
       "candidate (default 50)", 1, 100000000, 0, 0, NULL},
      {"write-script", 0, CS_OPT_PATH_OUT, &o.write_script, "FILE", "also write the script used (e.g. the best "
       "found) to FILE", 0, 0, 0, 0, NULL},
      {"list", 0, CS_OPT_FLAG, &o.list, NULL, "list the tree generators and exit", 0, 0, 0, 0, NULL},
      {"list-columns", 0, CS_OPT_FLAG, &o.list_columns, NULL, CS_LIST_COLUMNS_HELP, 0, 0, 0, 0, NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  cs_cli c;
  int rc = cs_cli_parse(&c, "allreduce", CS_CLI_OUTPUT | CS_CLI_ENGINE | CS_CLI_PLATFORM | CS_CLI_SEED | CS_CLI_TRACE, opts,
                        NULL,
                        "the Allreduce benchmark with scripted trees (seed 002; SMP clusters: --cluster or "
                        "--platform smp:...)",
                        "Examples:\n  collsim allreduce --cluster 4w --trees lam --iterations 1000 -n 32\n"
                        "  collsim allreduce --cluster 4w --trees best --write-script best-4w.yaml\n",
                        argc, argv);
  static const cs_opt_rule rules[] = {
      {"groups", "trees=hierarchical,kary-node,best"},
      {"fanout", "trees=kary-node,best"},
      {"search-iterations", "trees=best"},
      {NULL, NULL},
  };
  if (rc == 0)
    rc = cs_cli_check_rules(&c, rules, NULL);
  if (rc == 0 && c.rest[0])
    rc = cs_cli_usage(&c, "unexpected argument '%s'", c.rest[0]);
  if (rc == 0 && !o.trees)
    o.trees = g_strdup("lam");
  if (rc == 0 && o.list_columns)
    rc = cs_cli_list_columns(&c);
  else if (rc == 0 && o.list)
    list_generators();
  else if (rc == 0)
    rc = run_allreduce(&c, &o);
  cs_cli_free(&c);
  return rc;
}

int cs_tree_script_main(int argc, char **argv)
{
  ar_opts o = {.groups = 1};
  const cs_opt opts[] = {
      {"from", 0, CS_OPT_STRING, &o.from, "NAME", "generator (lam, linear, hierarchical, kary-node)", 0, 0, 0, 0,
       NULL},
      {"n", 'n', CS_OPT_INT, &o.n, "P", "processes (required)", 1, G_MAXINT, 0, 0, NULL},
      {"order", 0, CS_OPT_CHOICE, &o.order, "ORDER", "receive order written into the script", 0, 0, 0, 0, orders},
      {"groups", 0, CS_OPT_INT, &o.groups, "G", "hierarchical trees: groups per node", 1, 1024, 0, 0, NULL},
      {"fanout", 0, CS_OPT_INT, &o.fanout, "K", "fan-out of families with a degree", 1, G_MAXINT, 0, 0, NULL},
      {"out", 'o', CS_OPT_PATH_OUT, &o.out, "FILE", "write the script to FILE (atomically; default stdout)", 0, 0, 0,
       0, NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  cs_cli c;
  int rc = cs_cli_parse(&c, "tree-script", CS_CLI_PLATFORM, opts, NULL,
                        "write a reduce/broadcast tree as an editable YAML script (placement: --cluster, default "
                        "4w)",
                        NULL, argc, argv);
  GError *e = NULL;
  cs_platform *p = NULL;
  cs_tree_script *s = NULL;
  static const cs_opt_rule rules[] = {
      {"groups", "from=hierarchical,kary-node"},
      {"fanout", "from=kary-node"},
      {NULL, NULL},
  };
  if (rc == 0)
    rc = cs_cli_check_rules(&c, rules, NULL);
  if (rc == 0 && c.rest[0])
    rc = cs_cli_usage(&c, "unexpected argument '%s'", c.rest[0]);
  else if (rc == 0 && !o.from)
    rc = cs_cli_usage(&c, "--from GENERATOR is required (see collsim allreduce --list)");
  else if (rc == 0 && looks_like_file(o.from))
    rc = cs_cli_usage(&c, "--from takes a generator name, not a file");
  else if (rc == 0 && !o.n)
    rc = cs_cli_usage(&c, "-n is required");
  if (rc == 0) {
    bool ok = (p = cs_cli_platform(&c, "smp:4w", &e)) && cs_platform_resolve(p, o.n, &e);
    if (ok && o.groups > p->cores)
      ok = cs_input_error(&e, "--groups must be between 1 and the cores per node (%d)", p->cores);
    if (ok && (s = generate(&o, o.from, p, (int)o.n, &e))) {
      char *yaml = cs_ts_to_yaml(s);
      c.out = o.out;
      rc = cs_cli_emit_text(&c, yaml, strlen(yaml));
      c.out = NULL;
      g_free(yaml);
    } else {
      rc = cs_cli_fail(&c, e);
    }
  }
  g_clear_error(&e);
  cs_ts_free(s);
  cs_platform_free(p);
  cs_cli_free(&c);
  return rc;
}
