/* Command line of `collsim tree` (one run) and `collsim platform`.
 * Bad input: one message naming the problem, exit status 2, nothing written. */
#include "sim/cli/cli_tree.h"
#include "platforms/bgp_torus.h"
#include "platforms/net.h"
#include "sim/drivers/spanning_tree_run.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cs_usage_error(const char *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "collsim %s: error: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 2;
}

int cs_write_file_atomic(const char *path, const char *text, size_t len, char **errmsg)
{
  GError *e = NULL;
  if (!g_file_set_contents(path, text, (gssize)len, &e)) {
    *errmsg = g_strdup(e->message);
    g_error_free(e);
    return -1;
  }
  return 0;
}

typedef struct tree_opts {
  char *algo, *torus, *platform, *members, *format, *out, *trace, *model, *factory, *color_rule;
  char *keep_platform;
  char **cfg;
  int n, k, colors, cores, stack_kib;
  gint64 seed;
  double f, o_send_us, o_recv_us, link_bw_mbs, link_lat_ns;
  gboolean list, no_header, quiet, no_verify, no_bracket, crosstraffic;
} tree_opts;

static void list_algorithms(void)
{
  printf("%-16s %-10s %s\n", "algorithm", "colours", "description");
  for (int i = 0; i < cs_tree_algo_count; i++)
    printf("%-16s %-10s %s\n", cs_tree_algos[i].name, cs_tree_algos[i].multicolor ? "any" : "1",
           cs_tree_algos[i].description);
}

static GOptionContext *tree_option_context(tree_opts *o)
{
  GOptionEntry entries[] = {
    {"algo", 'a', 0, G_OPTION_ARG_STRING, &o->algo, "algorithm (see --list)", "NAME"},
    {"list", 0, 0, G_OPTION_ARG_NONE, &o->list, "list the algorithms and exit", NULL},
    {"n", 'n', 0, G_OPTION_ARG_INT, &o->n, "processes in the parent group", "N"},
    {"f", 'f', 0, G_OPTION_ARG_DOUBLE, &o->f, "participation fraction in [0,1] (default 0.6)", "F"},
    {"k", 'k', 0, G_OPTION_ARG_INT, &o->k, "tree degree, >= 2 (default 3)", "K"},
    {"colors", 0, 0, G_OPTION_ARG_INT, &o->colors, "number of colours / new groups (default 1)", "C"},
    {"color-rule", 0, 0, G_OPTION_ARG_STRING, &o->color_rule, "colour of a member: mod (rank mod C, default) or random", "RULE"},
    {"seed", 0, 0, G_OPTION_ARG_INT64, &o->seed, "seed of the participation draw (default 1)", "S"},
    {"members", 0, 0, G_OPTION_ARG_FILENAME, &o->members, "explicit member ranks instead of -f", "FILE"},
    {"torus", 0, 0, G_OPTION_ARG_STRING, &o->torus, "BG/P torus XxYxZ, or auto (default: smallest partition for n)", "SHAPE"},
    {"cores", 0, 0, G_OPTION_ARG_INT, &o->cores, "ranks per node (default 4)", "C"},
    {"platform", 0, 0, G_OPTION_ARG_FILENAME, &o->platform, "SimGrid platform XML instead of a torus", "FILE"},
    {"keep-platform", 0, 0, G_OPTION_ARG_FILENAME, &o->keep_platform, "also write the generated torus XML here", "FILE"},
    {"link-bw", 0, 0, G_OPTION_ARG_DOUBLE, &o->link_bw_mbs, "torus link bandwidth, MB/s per direction (default 425)", "MBPS"},
    {"link-lat", 0, 0, G_OPTION_ARG_DOUBLE, &o->link_lat_ns, "torus latency per hop, ns (default 100)", "NS"},
    {"o-send", 0, 0, G_OPTION_ARG_DOUBLE, &o->o_send_us, "software overhead per message sent, us (default 1.5)", "US"},
    {"o-recv", 0, 0, G_OPTION_ARG_DOUBLE, &o->o_recv_us, "software overhead per message received, us (default 1.5)", "US"},
    {"model", 0, 0, G_OPTION_ARG_STRING, &o->model, "SimGrid network model (default LV08)", "MODEL"},
    {"crosstraffic", 0, 0, G_OPTION_ARG_NONE, &o->crosstraffic, "model acknowledgement cross-traffic (8x slower)", NULL},
    {"stack-kib", 0, 0, G_OPTION_ARG_INT, &o->stack_kib, "actor stack size in KiB (default 16; 256 in sanitizer builds)", "KIB"},
    {"factory", 0, 0, G_OPTION_ARG_STRING, &o->factory, "SimGrid context factory (raw, ucontext, thread)", "NAME"},
    {"cfg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->cfg, "extra SimGrid setting name:value (repeatable)", "NAME:VALUE"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &o->format, "table (default), csv or json", "FMT"},
    {"no-header", 0, 0, G_OPTION_ARG_NONE, &o->no_header, "csv without the header line", NULL},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "write the result to FILE (atomically) instead of stdout", "FILE"},
    {"trace", 0, 0, G_OPTION_ARG_FILENAME, &o->trace, "record every message (src,dst,bytes,phase) to a CSV", "FILE"},
    {"no-verify", 0, 0, G_OPTION_ARG_NONE, &o->no_verify, "do not fail on a tree that does not verify", NULL},
    {"no-bracket", 0, 0, G_OPTION_ARG_NONE, &o->no_bracket, "run the algorithm without the bracketing broadcast/reduction", NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "no progress on stderr", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
  };
  GOptionContext *ctx = g_option_context_new("- build a spanning tree over a system-ranked process group");
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_summary(ctx, "Example: collsim tree --algo rank-hash -n 131072 -f 0.6 -k 3 --seed 7");
  return ctx;
}

static void tree_opts_free(tree_opts *o)
{
  g_free(o->algo); g_free(o->torus); g_free(o->platform); g_free(o->members); g_free(o->format);
  g_free(o->out); g_free(o->trace); g_free(o->model); g_free(o->factory); g_free(o->color_rule);
  g_free(o->keep_platform);
  g_strfreev(o->cfg);
}

/* Checks that do not need the platform. Returns 0 or prints and returns 2. */
static int validate(const tree_opts *o, const cs_tree_algo **algo)
{
  if (!o->algo)
    return cs_usage_error("tree", "--algo is required (see collsim tree --list)");
  *algo = cs_tree_algo_find(o->algo);
  if (!*algo)
    return cs_usage_error("tree", "unknown algorithm '%s' (see collsim tree --list)", o->algo);
  if (o->n < 1)
    return cs_usage_error("tree", "-n must be at least 1 (got %d)", o->n);
  if (o->k < 2)
    return cs_usage_error("tree", "-k must be at least 2 (got %d)", o->k);
  if (!(o->f >= 0.0 && o->f <= 1.0))
    return cs_usage_error("tree", "-f must be in [0, 1] (got %g)", o->f);
  if (o->colors < 1)
    return cs_usage_error("tree", "--colors must be at least 1 (got %d)", o->colors);
  if (o->colors > 1 && !(*algo)->multicolor)
    return cs_usage_error("tree", "%s builds one group; --colors %d needs rank-hash-split or comm-split",
                          o->algo, o->colors);
  if (o->cores < 1)
    return cs_usage_error("tree", "--cores must be at least 1 (got %d)", o->cores);
  if (o->seed < 0)
    return cs_usage_error("tree", "--seed must be >= 0");
  if (strcmp(o->format, "table") && strcmp(o->format, "csv") && strcmp(o->format, "json"))
    return cs_usage_error("tree", "unknown --format '%s' (table, csv or json)", o->format);
  if (strcmp(o->color_rule, "mod") && strcmp(o->color_rule, "random"))
    return cs_usage_error("tree", "unknown --color-rule '%s' (mod or random)", o->color_rule);
  if (o->stack_kib < 8)
    return cs_usage_error("tree", "--stack-kib must be at least 8");
  if (o->o_send_us < 0 || o->o_recv_us < 0 || o->link_bw_mbs <= 0 || o->link_lat_ns < 0)
    return cs_usage_error("tree", "overheads and latency must be >= 0, bandwidth > 0");
  if (o->model && strcmp(o->model, "LV08") && strcmp(o->model, "CM02") && strcmp(o->model, "SMPI") &&
      strcmp(o->model, "IB"))
    return cs_usage_error("tree", "unknown --model '%s' (LV08, CM02, SMPI or IB)", o->model);
  if (o->platform && o->torus)
    return cs_usage_error("tree", "give either --platform or --torus, not both");
  return 0;
}

/* Writes the torus XML to a temporary file; sets *desc. Returns 0 or 2. */
static int make_torus(const tree_opts *o, char **path, char **desc)
{
  cs_bgp_params bp = cs_bgp_defaults();
  bp.cores = o->cores;
  bp.link_bw = o->link_bw_mbs * 1e6;
  bp.link_lat = o->link_lat_ns * 1e-9;
  if (o->torus == NULL || strcmp(o->torus, "auto") == 0)
    cs_bgp_auto_shape(((int64_t)o->n + o->cores - 1) / o->cores, &bp.x, &bp.y, &bp.z);
  else if (cs_bgp_parse_shape(o->torus, &bp.x, &bp.y, &bp.z))
    return cs_usage_error("tree", "malformed --torus '%s' (expected XxYxZ with every dimension >= 2, e.g. 8x8x16, or auto)", o->torus);
  int64_t slots = (int64_t)bp.x * bp.y * bp.z * bp.cores;
  if (slots < o->n)
    return cs_usage_error("tree", "n = %d is larger than the platform: torus %dx%dx%d x %d cores = %lld", o->n,
                          bp.x, bp.y, bp.z, bp.cores, (long long)slots);
  GError *e = NULL;
  int fd = g_file_open_tmp("collsim-torus-XXXXXX.xml", path, &e);
  if (fd < 0) {
    fprintf(stderr, "collsim tree: error: cannot create a temporary platform file: %s\n", e->message);
    g_error_free(e);
    return 1;
  }
  FILE *out = fdopen(fd, "w");
  int bad = cs_bgp_write_xml(out, &bp);
  bad |= fclose(out);
  if (!bad && o->keep_platform) {
    cs_bgp_params copy = bp;
    FILE *keep = fopen(o->keep_platform, "w");
    bad = !keep || cs_bgp_write_xml(keep, &copy) || fclose(keep);
  }
  if (bad) {
    fprintf(stderr, "collsim tree: error: cannot write the platform file\n");
    return 1;
  }
  *desc = g_strdup_printf("torus:%dx%dx%d/%d", bp.x, bp.y, bp.z, bp.cores);
  return 0;
}

static char *format_result(const tree_opts *o, const cs_tree_result *r)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  if (strcmp(o->format, "json") == 0) {
    cs_result_write_json(mem, r);
  } else if (strcmp(o->format, "csv") == 0) {
    if (!o->no_header)
      fprintf(mem, "%s\n", CS_TREE_CSV_HEADER);
    cs_result_write_csv(mem, r);
  } else {
    cs_result_write_table(mem, r);
  }
  fclose(mem);
  return buf;
}

static int run_tree(tree_opts *o, const cs_tree_algo *algo)
{
  char *platform_path = NULL, *desc = NULL;
  int rc;
  if (o->platform) {
    if (access(o->platform, R_OK) != 0)
      return cs_usage_error("tree", "cannot read platform file %s: %s", o->platform, g_strerror(errno));
    desc = g_strdup_printf("file:%s", o->platform);
  } else if ((rc = make_torus(o, &platform_path, &desc)) != 0) {
    return rc;
  }
  if (o->members && access(o->members, R_OK) != 0) {
    rc = cs_usage_error("tree", "cannot read members file %s: %s", o->members, g_strerror(errno));
    goto done;
  }
  cs_tree_params prm = {
    .algo = algo, .n = o->n, .f = o->f, .k = o->k, .colors = o->colors,
    .color_rule = strcmp(o->color_rule, "random") == 0 ? CS_COLOR_RANDOM : CS_COLOR_MOD,
    .seed = (uint64_t)o->seed, .members_file = o->members, .bracket = !o->no_bracket,
    .verify = !o->no_verify, .trace_file = o->trace, .platform_desc = desc,
  };
  cs_engine_config_defaults(&prm.engine);
  prm.engine.platform_file = o->platform ? o->platform : platform_path;
  prm.engine.validate_platform = o->platform != NULL;
  prm.engine.cores = o->cores;
  prm.engine.o_send = o->o_send_us * 1e-6;
  prm.engine.o_recv = o->o_recv_us * 1e-6;
  prm.engine.stack_kib = o->stack_kib;
  prm.engine.crosstraffic = o->crosstraffic;
  if (o->model)
    prm.engine.model = o->model;
  prm.engine.factory = o->factory;
  prm.engine.quiet = o->quiet;
  GPtrArray *extra = g_ptr_array_new_with_free_func(g_free);
  for (char **c = o->cfg; c && *c; c++)
    g_ptr_array_add(extra, g_strdup_printf("--cfg=%s", *c));
  prm.engine.extra_cfg = extra;

  if (!o->quiet)
    fprintf(stderr, "collsim tree: %s, n=%d, f=%g, k=%d on %s ...\n", algo->name, o->n, o->f, o->k, desc);
  cs_tree_result res;
  GError *err = NULL;
  rc = cs_tree_run(&prm, &res, &err);
  if (rc != 0) {
    fprintf(stderr, "collsim tree: error: %s\n", err ? err->message : "failed");
  } else {
    char *text = format_result(o, &res);
    if (o->out) {
      char *msg = NULL;
      if (cs_write_file_atomic(o->out, text, strlen(text), &msg)) {
        rc = cs_usage_error("tree", "cannot write %s: %s", o->out, msg);
        g_free(msg);
      }
    } else {
      fputs(text, stdout);
      fflush(stdout);
    }
    free(text);
  }
  g_clear_error(&err);
  g_ptr_array_free(extra, TRUE);
done:
  if (platform_path) {
    unlink(platform_path);
    g_free(platform_path);
  }
  g_free(desc);
  return rc;
}

int cs_tree_main(int argc, char **argv)
{
  tree_opts o = {.k = 3, .colors = 1, .cores = 4, .stack_kib = CS_DEFAULT_STACK_KIB, .seed = 1, .f = 0.6,
                 .o_send_us = 1.5, .o_recv_us = 1.5, .link_bw_mbs = 425, .link_lat_ns = 100};
  GOptionContext *ctx = tree_option_context(&o);
  GError *e = NULL;
  int rc;
  if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
    rc = cs_usage_error("tree", "%s", e->message);
    g_error_free(e);
  } else if (argc > 1) {
    rc = cs_usage_error("tree", "unexpected argument '%s'", argv[1]);
  } else if (o.list) {
    list_algorithms();
    rc = 0;
  } else {
    if (!o.format)
      o.format = g_strdup("table");
    if (!o.color_rule)
      o.color_rule = g_strdup("mod");
    const cs_tree_algo *algo = NULL;
    rc = validate(&o, &algo);
    if (rc == 0)
      rc = run_tree(&o, algo);
  }
  g_option_context_free(ctx);
  tree_opts_free(&o);
  return rc;
}

/* collsim platform --net SPEC: a PERCS or Dragonfly platform (seed 001). */
static int write_net_platform(const char *spec, const char *out)
{
  cs_net net;
  GError *e = NULL;
  int rc = 0;
  if (!cs_net_parse(spec, &net, &e)) {
    rc = cs_usage_error("platform", "bad --net '%s': %s", spec, e->message);
  } else if (out) {
    if (!cs_net_write_xml(&net, out, &e))
      rc = cs_usage_error("platform", "%s", e->message);
  } else {
    char *tmp = NULL;
    int fd = g_file_open_tmp("collsim-net-XXXXXX.xml", &tmp, &e);
    gchar *text = NULL;
    if (fd >= 0)
      close(fd);
    if (fd < 0 || !cs_net_write_xml(&net, tmp, &e) || !g_file_get_contents(tmp, &text, NULL, &e))
      rc = cs_usage_error("platform", "%s", e->message);
    else
      fputs(text, stdout);
    g_free(text);
    if (tmp)
      unlink(tmp);
    g_free(tmp);
  }
  g_clear_error(&e);
  return rc;
}

int cs_platform_main(int argc, char **argv)
{
  char *torus = NULL, *out = NULL, *net = NULL;
  int cores = 4, n = 0;
  GOptionEntry entries[] = {
    {"torus", 0, 0, G_OPTION_ARG_STRING, &torus, "torus shape XxYxZ, or auto with -n", "SHAPE"},
    {"net", 0, 0, G_OPTION_ARG_STRING, &net, "two-tier network instead: percs:SN,NPS,CPN or dragonfly:G,A,H,P[,C]", "SPEC"},
    {"n", 'n', 0, G_OPTION_ARG_INT, &n, "with --torus auto: ranks the partition must hold", "N"},
    {"cores", 0, 0, G_OPTION_ARG_INT, &cores, "cores per node (default 4)", "C"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "output file (default stdout)", "FILE"},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
  };
  GOptionContext *ctx = g_option_context_new("- write a BG/P torus, PERCS or Dragonfly platform as SimGrid XML");
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *e = NULL;
  int rc = 0;
  cs_bgp_params bp = cs_bgp_defaults();
  if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
    rc = cs_usage_error("platform", "%s", e->message);
    g_error_free(e);
  } else if (net && torus) {
    rc = cs_usage_error("platform", "give either --torus or --net, not both");
  } else if (net) {
    rc = write_net_platform(net, out);
  } else if (cores < 1) {
    rc = cs_usage_error("platform", "--cores must be at least 1");
  } else if (torus && strcmp(torus, "auto") == 0 && n < 1) {
    rc = cs_usage_error("platform", "--torus auto needs -n N >= 1");
  } else if (!torus || (strcmp(torus, "auto") != 0 && cs_bgp_parse_shape(torus, &bp.x, &bp.y, &bp.z))) {
    rc = cs_usage_error("platform", "--torus XxYxZ is required, every dimension >= 2 (e.g. 8x8x16), or auto -n N");
  } else {
    if (strcmp(torus, "auto") == 0)
      cs_bgp_auto_shape(((int64_t)n + cores - 1) / cores, &bp.x, &bp.y, &bp.z);
    bp.cores = cores;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    cs_bgp_write_xml(mem, &bp);
    fclose(mem);
    if (out) {
      char *msg = NULL;
      if (cs_write_file_atomic(out, buf, len, &msg)) {
        rc = cs_usage_error("platform", "cannot write %s: %s", out, msg);
        g_free(msg);
      }
    } else {
      fputs(buf, stdout);
    }
    free(buf);
  }
  g_option_context_free(ctx);
  g_free(torus);
  g_free(out);
  g_free(net);
  return rc;
}
