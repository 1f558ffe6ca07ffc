/* `collsim tree`: one tree construction (seed 000), through the driver
 * sim/drivers/spanning_tree_run.c, on any platform (a BG/P torus sized for
 * n by default).  Bad input: one message naming the problem, exit status 2,
 * nothing written. */
#include "sim/cli/columns.h"
#include "sim/cli/commands.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/tempdir.h"
#include "sim/drivers/spanning_tree_run.h"

#include <stdio.h>
#include <string.h>

typedef struct tree_opts {
  char *algo, *members, *keep_platform, *color_rule;
  int64_t n, k, colors;
  double f;
  bool list, no_verify, no_bracket, list_columns;
} tree_opts;

static const char *const color_rules[] = {"mod", "random", NULL};

static void list_algorithms(void)
{
  printf("%-16s %-10s %s\n", "algorithm", "colours", "description");
  for (int i = 0; i < cs_tree_algo_count; i++)
    printf("%-16s %-10s %s\n", cs_tree_algos[i].name, cs_tree_algos[i].multicolor ? "any" : "1",
           cs_tree_algos[i].description);
}

/* Checks that need no platform; 0 or the exit status. */
static int validate(const cs_cli *c, const tree_opts *o, const cs_tree_algo **algo)
{
  if (!o->algo)
    return cs_cli_usage(c, "--algo is required (see collsim tree --list)");
  if (!(*algo = cs_tree_algo_find(o->algo)))
    return cs_cli_usage(c, "unknown algorithm '%s' (see collsim tree --list)", o->algo);
  if (!o->n)
    return cs_cli_usage(c, "-n is required (the size of the parent group)");
  if (o->colors > 1 && !(*algo)->multicolor)
    return cs_cli_usage(c, "%s builds one group; --colors %lld needs rank-hash-split or comm-split", o->algo,
                        (long long)o->colors);
  if (o->colors > o->n)
    return cs_cli_usage(c, "--colors %lld exceeds n = %lld", (long long)o->colors, (long long)o->n);
  return 0;
}

static bool platform_given(const cs_cli *c) { return c->platform || c->torus || c->net || c->cluster || c->cores; }

/* The platform of the run: the one given, else a BG/P torus sized for n;
 * none on the native engine unless given (LogGOPS needs none). */
static bool tree_platform(const cs_cli *c, const tree_opts *o, cs_platform **p, GError **err)
{
  *p = NULL;
  if (cs_cli_native(c) && !platform_given(c))
    return !o->keep_platform || cs_input_error(err, "--keep-platform needs --platform on the native engine");
  return (*p = cs_cli_platform(c, "torus:auto/4", err)) && cs_platform_resolve(*p, o->n, err) &&
         cs_platform_check_size(*p, err);
}

static int run_tree(const cs_cli *c, const tree_opts *o, const cs_tree_algo *algo)
{
  GError *e = NULL;
  cs_tree_params prm = {
      .algo = algo, .n = (int)o->n, .f = o->f, .k = (int)o->k, .colors = (int)o->colors,
      .color_rule = o->color_rule && strcmp(o->color_rule, "random") == 0 ? CS_COLOR_RANDOM : CS_COLOR_MOD,
      .seed = c->seed, .members_file = o->members, .bracket = !o->no_bracket, .verify = !o->no_verify};
  cs_platform *p = NULL;
  char *xml = NULL, *desc = NULL;
  bool is_temp = false;
  bool ok = tree_platform(c, o, &p, &e) && cs_cli_run_size(c, o->n, &e) &&
            cs_cli_procs_engine(c, &prm.procs, &e) && cs_cli_engine(c, p, 1.5e-6, 1.5e-6, &prm.engine, &e) &&
            (prm.procs.native || cs_platform_xml_for_run(p, &xml, &is_temp, &e));
  int rc = ok ? 0 : cs_cli_fail(c, e);
  g_clear_error(&e);
  if (rc == 0) {
    desc = p ? cs_platform_describe(p) : g_strdup("none");
    prm.platform_desc = desc;
    prm.engine.platform_file = xml;
    int *host_of = !p || p->mapping == CS_MAP_IN_ORDER ? NULL : cs_platform_host_map(p, o->n);
    prm.engine.host_of = host_of;
    if (!p)
      prm.engine.cores = 1; /* no platform: every rank a host of its own */
    if (!c->quiet)
      fprintf(stderr, "collsim tree: %s, n=%lld, f=%g, k=%lld on %s%s ...\n", algo->name, (long long)o->n, o->f,
              (long long)o->k, desc, prm.procs.native ? " (native engine)" : "");
    cs_tree_result res;
    rc = cs_tree_run(&prm, &res, &e);
    if (rc == 0 && o->keep_platform && !cs_platform_write_file(p, o->keep_platform, &e))
      rc = 2;
    if (rc != 0)
      cs_cli_fail(c, e);
    else
      rc = cs_cli_trace_write(c);
    if (rc == 0) {
      cs_record *r = cs_tree_result_record(&res);
      rc = cs_cli_emit(c, &r, 1, cs_record_kind_csv(&cs_tree_record_kind), "collsim tree");
      cs_record_free(r);
    }
    g_free(host_of);
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

int cs_tree_main(int argc, char **argv)
{
  tree_opts o = {.k = 3, .colors = 1, .f = 0.6};
  const cs_opt opts[] = {
      {"algo", 'a', CS_OPT_STRING, &o.algo, "NAME", "algorithm (see --list)", 0, 0, 0, 0, NULL},
      {"list", 0, CS_OPT_FLAG, &o.list, NULL, "list the algorithms and exit", 0, 0, 0, 0, NULL},
      {"list-columns", 0, CS_OPT_FLAG, &o.list_columns, NULL, CS_LIST_COLUMNS_HELP, 0, 0, 0, 0, NULL},
      {"n", 'n', CS_OPT_INT, &o.n, "N", "processes in the parent group", 1, G_MAXINT, 0, 0, NULL},
      {"f", 'f', CS_OPT_QUANTITY, &o.f, "F", "participation fraction in [0,1] (default 0.6)", 0, 1, CS_QTY_NUMBER, 1,
       NULL},
      {"k", 'k', CS_OPT_INT, &o.k, "K", "tree degree, >= 2 (default 3)", 2, 1 << 20, 0, 0, NULL},
      {"colors", 0, CS_OPT_INT, &o.colors, "C", "number of colours / new groups (default 1)", 1, G_MAXINT, 0, 0,
       NULL},
      {"color-rule", 0, CS_OPT_CHOICE, &o.color_rule, "RULE", "colour of a member: mod (rank mod C, default) or "
       "random", 0, 0, 0, 0, color_rules},
      {"members", 0, CS_OPT_PATH_IN, &o.members, "FILE", "explicit member ranks instead of -f", 0, 0, 0, 0, NULL},
      {"keep-platform", 0, CS_OPT_PATH_OUT, &o.keep_platform, "FILE", "also write the platform XML here", 0, 0, 0,
       0, NULL},
      {"no-verify", 0, CS_OPT_FLAG, &o.no_verify, NULL, "do not fail on a tree that does not verify", 0, 0, 0, 0,
       NULL},
      {"no-bracket", 0, CS_OPT_FLAG, &o.no_bracket, NULL, "run the algorithm without the bracketing "
       "broadcast/reduction", 0, 0, 0, 0, NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  cs_cli c;
  int rc = cs_cli_parse(&c, "tree", CS_CLI_OUTPUT | CS_CLI_ENGINE | CS_CLI_PLATFORM | CS_CLI_SEED | CS_CLI_TRACE | CS_CLI_NATIVE,
                        opts,
                        NULL, "build a spanning tree over a system-ranked process group (seed 000)",
                        "Example: collsim tree --algo rank-hash -n 131072 -f 0.6 -k 3 --seed 7", argc, argv);
  static const cs_opt_rule rules[] = {
      {"f", "!members"},
      {"color-rule", "+colors"},
      {CS_NATIVE_REFUSES, "engine!=native"},
      {"loggops", "engine=native"},
      {NULL, NULL},
  };
  if (rc == 0)
    rc = cs_cli_check_rules(&c, rules, NULL);
  const cs_tree_algo *algo = NULL;
  if (rc == 0 && c.rest[0])
    rc = cs_cli_usage(&c, "unexpected argument '%s'", c.rest[0]);
  if (rc == 0 && o.list_columns)
    rc = cs_cli_list_columns(&c);
  else if (rc == 0 && o.list)
    list_algorithms();
  else if (rc == 0 && (rc = validate(&c, &o, &algo)) == 0)
    rc = run_tree(&c, &o, algo);
  cs_cli_free(&c);
  return rc;
}
