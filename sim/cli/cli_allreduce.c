/* `collsim allreduce` (the benchmark of seed 002, Figure 4, on a simulated
 * SMP cluster) and `collsim tree-script` (write a generated tree as an
 * editable YAML script).  Bad input: one message naming the problem, exit
 * status 2, nothing written. */
#include "sim/cli/cli_allreduce.h"
#include "algorithms/reduce_bcast_trees/tree_gen.h"
#include "platforms/smp_cluster.h"
#include "sim/drivers/allreduce_bench.h"
#include "sim/cli/cli_tree.h"
#include "sim/drivers/tree_search.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct ar_opts {
  char *cluster, *trees, *order, *format, *out, *model, *from, *write_script;
  int n, iterations, groups, fanout, search_iterations;
  double cycles, net_lat_us, shm_lat_us;
  gboolean list, quiet;
} ar_opts;

static void ar_opts_free(ar_opts *o)
{
  g_free(o->cluster); g_free(o->trees); g_free(o->order); g_free(o->format); g_free(o->out); g_free(o->model);
  g_free(o->from);
  g_free(o->write_script);
}

static void list_generators(void)
{
  printf("%-16s %s\n", "trees", "description");
  for (size_t i = 0; i < cs_tree_gen_count(); i++)
    printf("%-16s %s\n", cs_tree_gen_at(i)->name, cs_tree_gen_at(i)->summary);
  printf("%-16s %s\n", "FILE.yaml", "a tree script (see collsim tree-script)");
}

static gboolean looks_like_file(const char *s)
{
  return strchr(s, '/') || g_str_has_suffix(s, ".yaml") || g_str_has_suffix(s, ".yml");
}

static int parse_order(const char *cmd, const char *s, cs_ts_order *out)
{
  if (!s)
    return 0;
  if (!strcmp(s, "scripted"))
    *out = CS_TS_SCRIPTED_ORDER;
  else if (!strcmp(s, "arrival"))
    *out = CS_TS_ARRIVAL_ORDER;
  else
    return cs_usage_error(cmd, "unknown --order '%s' (scripted or arrival)", s);
  return 0;
}

/* The script named by --trees / --from: a generator or a YAML file. */
static cs_tree_script *make_script(const char *cmd, const ar_opts *o, const char *trees, const cs_smp_cluster *c,
                                   int n, int *rc)
{
  GError *e = NULL;
  cs_tree_script *s = NULL;
  if (looks_like_file(trees)) {
    s = cs_ts_load(trees, &e);
    if (!s)
      *rc = cs_usage_error(cmd, "%s", e->message);
    else if (n > 0 && s->n != n)
      *rc = cs_usage_error(cmd, "%s is a script for n = %d, not -n %d", trees, s->n, n);
  } else {
    const cs_tree_gen *g = cs_tree_gen_find(trees);
    if (!g) {
      *rc = cs_usage_error(cmd, "unknown trees '%s' (see --list, or give a FILE.yaml)", trees);
      return NULL;
    }
    int *node_of = g_new(int, n);
    cs_smp_spread(c, n, node_of);
    cs_tree_gen_params prm = {.n = n, .nodes = c->nodes, .cores = c->cores, .node_of = node_of,
                              .groups_per_node = o->groups, .fanout = o->fanout, .order = CS_TS_SCRIPTED_ORDER};
    *rc = parse_order(cmd, o->order, &prm.order);
    if (*rc == 0)
      s = g->generate(&prm);
    g_free(node_of);
    if (s && !cs_ts_validate(s, &e))
      *rc = cs_usage_error(cmd, "internal error: generator %s made an invalid script: %s", trees, e->message);
  }
  g_clear_error(&e);
  if (*rc && s) {
    cs_ts_free(s);
    s = NULL;
  }
  if (s && o->order)
    *rc = parse_order(cmd, o->order, &s->order);
  return s;
}

static int emit(const char *cmd, const char *out, const char *text, size_t len)
{
  if (!out) {
    fwrite(text, 1, len, stdout);
    return 0;
  }
  char *msg = NULL;
  if (cs_write_file_atomic(out, text, len, &msg)) {
    int rc = cs_usage_error(cmd, "cannot write %s: %s", out, msg);
    g_free(msg);
    return rc;
  }
  return 0;
}

static char *format_result(const ar_opts *o, const cs_smp_cluster *c, const cs_tree_script *s,
                           const cs_allreduce_result *r, const char *chosen)
{
  char *trees_buf = chosen ? g_strdup_printf("best: %s", chosen) : g_strdup(o->trees);
  const char *trees = trees_buf;
  char *text;
  const char *order = s->order == CS_TS_ARRIVAL_ORDER ? "arrival" : "scripted";
  if (!strcmp(o->format, "json"))
    text = g_strdup_printf("{\"cluster\": \"%s\", \"cpu\": \"%s\", \"trees\": \"%s\", \"order\": \"%s\", \"n\": %d, "
                           "\"iterations\": %d, \"us_per_allreduce\": %.6f, \"messages_per_allreduce\": %d, "
                           "\"internode_messages_per_allreduce\": %d, \"result_ok\": %s, \"model\": \"%s\"}\n",
                           c->name, c->cpu, trees, order, s->n, o->iterations, r->us_per_allreduce,
                           r->messages_per_allreduce, r->internode_messages_per_allreduce,
                           r->result_ok ? "true" : "false", o->model);
  else if (!strcmp(o->format, "csv"))
    text = g_strdup_printf("cluster,trees,order,n,iterations,us_per_allreduce,messages_per_allreduce,"
                           "internode_messages_per_allreduce,result_ok\n%s,%s,%s,%d,%d,%.6f,%d,%d,%s\n",
                           c->name, trees, order, s->n, o->iterations, r->us_per_allreduce,
                           r->messages_per_allreduce, r->internode_messages_per_allreduce,
                           r->result_ok ? "true" : "false");
  else
    text = g_strdup_printf("allreduce of one int on %s (%d x %d %s), trees %s (%s receive order), n = %d\n"
                         "%.1f us per allreduce over %d iterations; %d messages per allreduce, %d between nodes; "
                         "results %s\n",
                         c->name, c->nodes, c->cores, c->cpu, trees, order, s->n, r->us_per_allreduce, o->iterations,
                         r->messages_per_allreduce, r->internode_messages_per_allreduce,
                         r->result_ok ? "all correct" : "WRONG");
  g_free(trees_buf);
  return text;
}

static int validate(const ar_opts *o, cs_smp_cluster *c, int *n)
{
  GError *e = NULL;
  if (!o->cluster)
    return cs_usage_error("allreduce", "--cluster is required (NODESxCORES, e.g. 8x4, or 2w, 4w, 8w)");
  if (!cs_smp_parse(o->cluster, c, &e)) {
    int rc = cs_usage_error("allreduce", "%s", e->message);
    g_error_free(e);
    return rc;
  }
  if (o->n < 0 || o->n > c->nodes * c->cores)
    return cs_usage_error("allreduce", "-n must be between 1 and %d (the cluster's processors), got %d",
                          c->nodes * c->cores, o->n);
  *n = o->n ? o->n : c->nodes * c->cores;
  if (o->iterations < 0)
    return cs_usage_error("allreduce", "--iterations must be >= 0");
  if (o->groups < 1 || o->groups > c->cores)
    return cs_usage_error("allreduce", "--groups must be between 1 and the cores per node (%d)", c->cores);
  if (strcmp(o->format, "table") && strcmp(o->format, "csv") && strcmp(o->format, "json"))
    return cs_usage_error("allreduce", "unknown --format '%s' (table, csv or json)", o->format);
  if (strcmp(o->model, "LV08") && strcmp(o->model, "CM02"))
    return cs_usage_error("allreduce", "unknown --model '%s' (CM02 or LV08)", o->model);
  if (o->search_iterations < 1)
    return cs_usage_error("allreduce", "--search-iterations must be >= 1");
  if (o->cycles < 0 || o->net_lat_us < 0 || o->shm_lat_us < 0)
    return cs_usage_error("allreduce", "--cycles, --net-lat and --shm-lat must be >= 0");
  if (o->cycles > 0)
    c->cycles_send = c->cycles_recv = o->cycles;
  if (o->net_lat_us > 0)
    c->net_lat = o->net_lat_us * 1e-6;
  if (o->shm_lat_us > 0)
    c->shm_lat = o->shm_lat_us * 1e-6;
  return 0;
}

static void engine_defaults(const ar_opts *o, cs_engine_config *ec)
{
  cs_engine_config_defaults(ec);
  ec->model = o->model; /* CM02: the calibrated latencies as they are (LV08 multiplies them by 13) */
  ec->quiet = TRUE;
  ec->recv_window = 8;
}

/* --trees best: the search, then the winner's script. */
static cs_tree_script *search_best(const ar_opts *o, const cs_smp_cluster *c, int n, char **chosen, int *rc)
{
  cs_engine_config ec;
  engine_defaults(o, &ec);
  cs_tree_choice best;
  GError *e = NULL;
  if (!cs_tree_search(c, n, o->search_iterations, &ec, o->quiet ? NULL : stderr, &best, &e)) {
    fprintf(stderr, "collsim allreduce: error: %s\n", e->message);
    *rc = e->domain == CS_INTERNAL_ERROR ? 1 : 2;
    g_error_free(e);
    return NULL;
  }
  *chosen = cs_tree_choice_describe(&best);
  return cs_tree_choice_script(&best, c, n);
}

static int save_script(const ar_opts *o, const cs_tree_script *s)
{
  GError *e = NULL;
  if (!o->write_script || cs_ts_save(s, o->write_script, &e))
    return 0;
  int rc = cs_usage_error("allreduce", "%s", e->message);
  g_error_free(e);
  return rc;
}

static int run_allreduce(const ar_opts *o)
{
  cs_smp_cluster c;
  int n = 0;
  int rc = validate(o, &c, &n);
  if (rc)
    return rc;
  char *chosen = NULL;
  cs_tree_script *s = !strcmp(o->trees, "best")
                          ? search_best(o, &c, n, &chosen, &rc)
                          : make_script("allreduce", o, o->trees, &c, looks_like_file(o->trees) ? o->n : n, &rc);
  if (!s)
    return rc ? rc : 1;
  cs_engine_config ec;
  engine_defaults(o, &ec);
  ec.quiet = o->quiet;
  cs_allreduce_result r;
  GError *e = NULL;
  if (!cs_allreduce_run(&c, s, o->iterations, &ec, &r, &e)) {
    rc = e->domain == CS_INTERNAL_ERROR ? 1 : 2;
    fprintf(stderr, "collsim allreduce: error: %s\n", e->message);
    g_error_free(e);
  } else {
    char *text = format_result(o, &c, s, &r, chosen);
    rc = emit("allreduce", o->out, text, strlen(text));
    g_free(text);
    if (rc == 0)
      rc = save_script(o, s);
    if (rc == 0 && !r.result_ok)
      rc = 1;
  }
  g_free(chosen);
  cs_ts_free(s);
  return rc;
}

int cs_allreduce_main(int argc, char **argv)
{
  ar_opts o = {.iterations = 1000, .groups = 1, .search_iterations = 50};
  GOptionEntry entries[] = {
    {"cluster", 0, 0, G_OPTION_ARG_STRING, &o.cluster, "NODESxCORES (8x4) or 2w, 4w, 8w; other shapes @MHZ", "SPEC"},
    {"trees", 't', 0, G_OPTION_ARG_STRING, &o.trees, "lam (default), linear, hierarchical, kary-node, best (search) or FILE.yaml", "NAME"},
    {"n", 'n', 0, G_OPTION_ARG_INT, &o.n, "processes (default: every processor of the cluster)", "P"},
    {"iterations", 'i', 0, G_OPTION_ARG_INT, &o.iterations, "timed Allreduce operations (default 1000)", "I"},
    {"order", 0, 0, G_OPTION_ARG_STRING, &o.order, "receive order: scripted (LAM) or arrival (PastSet/PATHS)", "ORDER"},
    {"groups", 0, 0, G_OPTION_ARG_INT, &o.groups, "hierarchical trees: groups per node (default 1)", "G"},
    {"fanout", 0, 0, G_OPTION_ARG_INT, &o.fanout, "tree families with a degree: fan-out (default: the family's)", "K"},
    {"search-iterations", 0, 0, G_OPTION_ARG_INT, &o.search_iterations, "--trees best: Allreduce operations per candidate (default 50)", "I"},
    {"write-script", 0, 0, G_OPTION_ARG_FILENAME, &o.write_script, "also write the script used (e.g. the best found) to FILE", "FILE"},
    {"cycles", 0, 0, G_OPTION_ARG_DOUBLE, &o.cycles, "CPU cycles per message sent and per message received (default 8000)", "C"},
    {"net-lat", 0, 0, G_OPTION_ARG_DOUBLE, &o.net_lat_us, "node-to-node latency, us (default 300)", "US"},
    {"shm-lat", 0, 0, G_OPTION_ARG_DOUBLE, &o.shm_lat_us, "shared-memory latency, us (default 80)", "US"},
    {"model", 0, 0, G_OPTION_ARG_STRING, &o.model, "SimGrid network model (default CM02)", "MODEL"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &o.format, "table (default), csv or json", "FMT"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &o.out, "write the result to FILE (atomically)", "FILE"},
    {"list", 0, 0, G_OPTION_ARG_NONE, &o.list, "list the tree generators and exit", NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o.quiet, "no progress on stderr", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
  };
  GOptionContext *ctx = g_option_context_new("- the Allreduce benchmark on a simulated SMP cluster (seed 002)");
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *e = NULL;
  int rc;
  if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
    rc = cs_usage_error("allreduce", "%s", e->message);
    g_error_free(e);
  } else if (argc > 1) {
    rc = cs_usage_error("allreduce", "unexpected argument '%s'", argv[1]);
  } else if (o.list) {
    list_generators();
    rc = 0;
  } else {
    if (!o.trees)
      o.trees = g_strdup("lam");
    if (!o.format)
      o.format = g_strdup("table");
    if (!o.model)
      o.model = g_strdup("CM02");
    rc = run_allreduce(&o);
  }
  g_option_context_free(ctx);
  ar_opts_free(&o);
  return rc;
}

int cs_tree_script_main(int argc, char **argv)
{
  ar_opts o = {.groups = 1};
  GOptionEntry entries[] = {
    {"from", 0, 0, G_OPTION_ARG_STRING, &o.from, "generator (lam, linear, hierarchical, ...)", "NAME"},
    {"n", 'n', 0, G_OPTION_ARG_INT, &o.n, "processes (required)", "P"},
    {"cluster", 0, 0, G_OPTION_ARG_STRING, &o.cluster, "placement of the processes (default 8x4)", "SPEC"},
    {"order", 0, 0, G_OPTION_ARG_STRING, &o.order, "receive order written into the script", "ORDER"},
    {"groups", 0, 0, G_OPTION_ARG_INT, &o.groups, "hierarchical trees: groups per node", "G"},
    {"fanout", 0, 0, G_OPTION_ARG_INT, &o.fanout, "fan-out of families with a degree", "K"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &o.out, "write the script to FILE (atomically; default stdout)", "FILE"},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
  };
  GOptionContext *ctx = g_option_context_new("- write a reduce/broadcast tree as an editable YAML script");
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *e = NULL;
  int rc = 0;
  cs_smp_cluster c;
  if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
    rc = cs_usage_error("tree-script", "%s", e->message);
    g_error_free(e);
  } else if (argc > 1) {
    rc = cs_usage_error("tree-script", "unexpected argument '%s'", argv[1]);
  } else if (!o.from) {
    rc = cs_usage_error("tree-script", "--from GENERATOR is required (see collsim allreduce --list)");
  } else if (!cs_smp_parse(o.cluster ? o.cluster : "8x4", &c, &e)) {
    rc = cs_usage_error("tree-script", "%s", e->message);
    g_clear_error(&e);
  } else if (o.n < 1 || o.n > c.nodes * c.cores) {
    rc = cs_usage_error("tree-script", "-n must be between 1 and %d (the cluster's processors)", c.nodes * c.cores);
  } else if (o.groups < 1 || o.groups > c.cores) {
    rc = cs_usage_error("tree-script", "--groups must be between 1 and the cores per node (%d)", c.cores);
  } else if (looks_like_file(o.from)) {
    rc = cs_usage_error("tree-script", "--from takes a generator name, not a file");
  } else {
    cs_tree_script *s = make_script("tree-script", &o, o.from, &c, o.n, &rc);
    if (s) {
      char *yaml = cs_ts_to_yaml(s);
      rc = emit("tree-script", o.out, yaml, strlen(yaml));
      g_free(yaml);
      cs_ts_free(s);
    }
  }
  g_option_context_free(ctx);
  ar_opts_free(&o);
  return rc;
}
