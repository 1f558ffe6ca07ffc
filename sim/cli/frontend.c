/* The shared front-end layer (see frontend.h). */
#include "sim/cli/frontend.h"
#include "sim/cli/expect.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/hugepages.h"
#include "sim/contracts/input_path.h"
#include "sim/contracts/tree_script.h"
#include "sim/cli/option_answer.h"
#include "sim/sweep/experiment.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const cs_models[] = {"LV08",    "CM02",          "SMPI", "IB", "loggops", "loggops-links",
                                 "loggops-cut-through", NULL};
static const char *const formats[] = {"table", "csv", "json", NULL};
static const char *const factories[] = {"raw", "ucontext", "thread", NULL};
static const char *const semantics[] = {"eager", "mpi", NULL};
static const char *const engines[] = {"simgrid", "native", NULL};

/* ---- the common options ---- */

#define NOT_GIVEN NAN

static void add_common(cs_cli *c)
{
  static const double us = 1e-6;
  const cs_opt output[] = {
      {"format", 0, CS_OPT_CHOICE, &c->format, "FMT", "table (default), csv or json", 0, 0, 0, 0, formats},
      {"out", 'o', CS_OPT_PATH_OUT, &c->out, "FILE", "write the result to FILE (atomically; missing folders are made) instead of stdout",
       0, 0, 0, 0, NULL},
      {"no-header", 0, CS_OPT_FLAG, &c->no_header, NULL, "csv without the header line", 0, 0, 0, 0, NULL},
      {"wide", 0, CS_OPT_FLAG, &c->wide, NULL, "tables: every column, however wide (by default a table of rows fits "
       "100 characters: empty columns left out, long text listed under it)", 0, 0, 0, 0, NULL},
      {"quiet", 'q', CS_OPT_FLAG, &c->quiet, NULL, "no progress on stderr", 0, 0, 0, 0, NULL},
      {"with-config", 0, CS_OPT_FLAG, &c->with_config, NULL, "add the run's whole configuration to every row "
       "(resolved platform, model, overheads, options, seed, collsim version, config_key; collsim sweep always does)",
       0, 0, 0, 0, NULL},
      {"expect-messages", 0, CS_OPT_STRING, &c->expect[0], "EXPR", "after writing the rows, check each row's "
       "messages against the formula EXPR over its numeric fields (n, m, k, s, c, p, bytes, ...; + - * / ^, floor, "
       "ceil, sqrt, log): one line per mismatch and exit status 1", 0, 0, 0, 0, NULL},
      {"expect-bytes", 0, CS_OPT_STRING, &c->expect[1], "EXPR", "the same for each row's bytes", 0, 0, 0, 0, NULL},
  };
  const cs_opt engine[] = {
      {"model", 0, CS_OPT_CHOICE, &c->model, "MODEL", "SimGrid network model: LV08, CM02, SMPI or IB (default: the "
       "platform's, else LV08); loggops, loggops-links, loggops-cut-through: the native engine's (collsim "
       "collective --engine native)", 0, 0, 0, 0, cs_models},
      {"o-send", 0, CS_OPT_QUANTITY, &c->o_send, "US", "software overhead per message sent, us (or with a unit: "
       "1.5us, 2e-6s)", 0, 10, CS_QTY_TIME, us, NULL},
      {"o-recv", 0, CS_OPT_QUANTITY, &c->o_recv, "US", "software overhead per message received, us", 0, 10,
       CS_QTY_TIME, us, NULL},
      {"cfg", 0, CS_OPT_LIST, &c->cfg, "NAME:VALUE", "extra SimGrid setting (repeatable; checked before the run)",
       0, 0, 0, 0, NULL},
      {"stack-kib", 0, CS_OPT_INT, &c->stack_kib, "KIB", "actor stack size in KiB (default 16; 256 in sanitizer "
       "builds)", 8, 1 << 20, 0, 0, NULL},
      {"factory", 0, CS_OPT_CHOICE, &c->factory, "NAME", "SimGrid context factory: raw, ucontext or thread", 0, 0,
       0, 0, factories},
      {"crosstraffic", 0, CS_OPT_FLAG, &c->crosstraffic, NULL, "model acknowledgement cross-traffic (8x slower)", 0,
       0, 0, 0, NULL},
      {"semantics", 0, CS_OPT_CHOICE, &c->semantics, "NAME", "messages: eager (default; a send flows at once, as "
       "a message-driven runtime) or mpi (SimGrid SMPI's: a message flows when its receive is posted, sends of "
       "64 KiB or more wait for it, no software overheads unless --o-send/--o-recv, model SMPI unless --model)", 0, 0, 0, 0, semantics},
  };
  const cs_opt platform[] = {
      {"platform", 0, CS_OPT_STRING, &c->platform, "SPEC", "the machine: torus:8x8x16/4, percs:64,16,16, "
       "dragonfly:9,4,2,2,4, smp:4w, or a SimGrid XML file (collsim platform --list)", 0, 0, 0, 0, NULL},
      {"torus", 0, CS_OPT_STRING, &c->torus, "SHAPE", "alias: --platform torus:SHAPE/CORES (XxYxZ or auto)", 0, 0,
       0, 0, NULL},
      {"cores", 0, CS_OPT_INT, &c->cores, "C", "ranks per node of a torus or an XML file", 1, 1024, 0, 0, NULL},
      {"link-bw", 0, CS_OPT_QUANTITY, &c->link_bw, "MBPS", "torus link bandwidth, MB/s per direction (default 425)",
       1e3, 1e15, CS_QTY_BANDWIDTH, 1e6, NULL},
      {"link-lat", 0, CS_OPT_QUANTITY, &c->link_lat, "NS", "torus latency per hop, ns (default 100, at most 1e9: "
       "1 s)", 0, 1, CS_QTY_TIME, 1e-9, NULL},
      {"net", 0, CS_OPT_STRING, &c->net, "SPEC", "alias: --platform percs:... or dragonfly:...", 0, 0, 0, 0, NULL},
      {"cluster", 0, CS_OPT_STRING, &c->cluster, "SPEC", "alias: --platform smp:SPEC (2w, 4w, 8w, or "
       "NODESxCORES@MHZ, e.g. 6x4@300: a shape has no default clock)", 0, 0, 0, 0, NULL},
      {"cycles", 0, CS_OPT_QUANTITY, &c->cycles, "C", "smp: CPU cycles per message sent and received (default "
       "8000)", 0, 1e12, CS_QTY_NUMBER, 1, NULL},
      {"net-lat", 0, CS_OPT_QUANTITY, &c->net_lat, "US", "smp: node-to-node latency, us (default 300, at most 1e6: "
       "1 s)", 0, 1, CS_QTY_TIME, 1e-6, NULL},
      {"shm-lat", 0, CS_OPT_QUANTITY, &c->shm_lat, "US", "smp: shared-memory latency, us (default 80, at most 1e6)",
       0, 1, CS_QTY_TIME, 1e-6, NULL},
  };
  const cs_opt trace[] = {
      {"trace", 0, CS_OPT_PATH_OUT, &c->trace, "FILE", "write every message delivered to a CSV: t_send_s,t_recv_s,"
       "src,dst,src_host,dst_host,bytes,tag,ctx,phase (timed runs)", 0, 0, 0, 0, NULL},
      {"timeline", 0, CS_OPT_PATH_OUT, &c->timeline, "FILE.png", "draw messages per rank and link load per tier "
       "over simulated time (gnuplot; runs of at most " G_STRINGIFY(CS_TIMELINE_MAX_RANKS) " ranks and "
       G_STRINGIFY(CS_TIMELINE_MAX_MESSAGES) " messages, else refused)", 0, 0, 0, 0, NULL},
  };
  const cs_opt native[] = {
      {"engine", 0, CS_OPT_CHOICE, &c->engine, "NAME", "engine of the processes: simgrid (default; SimGrid's flow "
       "models on the platform) or native (coroutines timed by LogGP/LogGOPS, no platform needed; "
       "docs/engines.md)", 0, 0, 0, 0, engines},
      {"loggops", 0, CS_OPT_STRING, &c->loggops, "L,o,g,G,S,O", "the native engine's LogGOPS parameters in "
       "LogGOPSim's units: ns, ns, ns, ns/byte, bytes, ns/byte (default 2500,1500,1000,6,65535,0; S unused: every "
       "message is eager)", 0, 0, 0, 0, NULL},
  };
  const cs_opt seed[] = {
      {"seed", 0, CS_OPT_U64, &c->seed, "S", "seed of everything random in the run (default 1)", 0, 0, 0, 0, NULL},
  };
  struct {
    unsigned flag;
    const cs_opt *opts;
    size_t n;
  } groups[] = {
      {CS_CLI_OUTPUT, output, G_N_ELEMENTS(output)},
      {CS_CLI_ENGINE, engine, G_N_ELEMENTS(engine)},
      {CS_CLI_PLATFORM, platform, G_N_ELEMENTS(platform)},
      {CS_CLI_SEED, seed, G_N_ELEMENTS(seed)},
      {CS_CLI_TRACE, trace, G_N_ELEMENTS(trace)},
      {CS_CLI_NATIVE, native, G_N_ELEMENTS(native)},
  };
  for (size_t g = 0; g < G_N_ELEMENTS(groups); g++)
    if (c->groups & groups[g].flag)
      for (size_t i = 0; i < groups[g].n; i++) {
        g_ptr_array_add(c->opts, g_memdup2(&groups[g].opts[i], sizeof(cs_opt)));
        g_hash_table_insert(c->group_of, (gpointer)groups[g].opts[i].name, GUINT_TO_POINTER(groups[g].flag));
      }
}

/* ---- option values ---- */

/* The option called `name` (without dashes), or NULL. */
static const cs_opt *option_named(const cs_cli *c, const char *name)
{
  for (guint i = 0; i < c->opts->len; i++) {
    const cs_opt *o = g_ptr_array_index(c->opts, i);
    if (strcmp(name, o->name) == 0)
      return o;
  }
  return NULL;
}

/* The option a command-line word names: "--name" or "-x". */
static const cs_opt *lookup(const cs_cli *c, const char *name)
{
  if (name[0] == '-' && name[1] == '-')
    return option_named(c, name + 2);
  for (guint i = 0; i < c->opts->len; i++) {
    const cs_opt *o = g_ptr_array_index(c->opts, i);
    if (name[1] == o->short_name && o->short_name)
      return o;
  }
  return NULL;
}

static bool bad_value(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool bad_value(GError **err, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error_literal(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, msg);
  g_free(msg);
  return false;
}

static bool as_option_error(GError *e, GError **err)
{
  g_set_error_literal(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, e->message);
  g_error_free(e);
  return false;
}

static bool parse_choice(const cs_opt *o, const char *value, GError **err)
{
  for (size_t i = 0; o->choices[i]; i++)
    if (strcmp(value, o->choices[i]) == 0) {
      g_free(*(char **)o->target);
      *(char **)o->target = g_strdup(value);
      return true;
    }
  GString *known = g_string_new(NULL);
  for (size_t i = 0; o->choices[i]; i++)
    g_string_append_printf(known, "%s%s", i ? ", " : "", o->choices[i]);
  bad_value(err, "--%s: unknown value '%s' (known: %s)", o->name, value, known->str);
  g_string_free(known, TRUE);
  return false;
}

static bool set_value(const cs_opt *o, const char *value, GError **err)
{
  char what[64];
  snprintf(what, sizeof what, "--%s", o->name);
  GError *e = NULL;
  switch (o->type) {
  case CS_OPT_FLAG:
    *(bool *)o->target = true;
    return true;
  case CS_OPT_CHOICE:
    return parse_choice(o, value, err);
  case CS_OPT_PATH_IN:
  case CS_OPT_PATH_STREAM: {
    char *found = o->type == CS_OPT_PATH_IN ? cs_input_path(what, value, &e) : cs_input_path_stream(what, value, &e);
    if (!found)
      return as_option_error(e, err);
    g_free(*(char **)o->target);
    *(char **)o->target = found;
    return true;
  }
  case CS_OPT_STRING:
    if (!*value)
      return bad_value(err, "%s: empty value", what);
    g_free(*(char **)o->target);
    *(char **)o->target = g_strdup(value);
    return true;
  case CS_OPT_PATH_OUT:
    if (!cs_check_output_path(what, value, true, &e))
      return as_option_error(e, err);
    g_free(*(char **)o->target);
    *(char **)o->target = g_strdup(value);
    return true;
  case CS_OPT_LIST:
    if (!*value)
      return bad_value(err, "%s: empty value", what);
    if (!*(GPtrArray **)o->target)
      *(GPtrArray **)o->target = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(*(GPtrArray **)o->target, g_strdup(value));
    return true;
  case CS_OPT_INT:
    return cs_parse_int(what, value, (int64_t)o->min, (int64_t)o->max, o->target, &e) || as_option_error(e, err);
  case CS_OPT_U64:
    return cs_parse_u64(what, value, (uint64_t)o->min, o->max > 0 ? (uint64_t)o->max : UINT64_MAX, o->target, &e) ||
           as_option_error(e, err);
  case CS_OPT_QUANTITY:
    return cs_parse_quantity(what, value, o->qty, o->bare_mult, o->min, o->max, o->target, &e) ||
           as_option_error(e, err);
  case CS_OPT_SIZE:
    return cs_parse_size(what, value, (uint64_t)o->min, o->max > 0 ? (uint64_t)o->max : UINT64_MAX, o->target, &e) ||
           as_option_error(e, err);
  }
  return bad_value(err, "%s: unknown option type", what);
}

/* An option that only says where and how results are written (the output
 * group, or a file it writes): never part of the run's config_args. */
static bool output_only(const cs_cli *c, const cs_opt *o)
{
  return o->type == CS_OPT_PATH_OUT || GPOINTER_TO_UINT(g_hash_table_lookup(c->group_of, o->name)) == CS_CLI_OUTPUT;
}

static gboolean on_option(const gchar *name, const gchar *value, gpointer data, GError **err)
{
  cs_cli *c = data;
  const cs_opt *o = lookup(c, name);
  if (!o)
    return bad_value(err, "unknown option %s", name);
  if (o->type != CS_OPT_LIST && g_hash_table_contains(c->seen, o->name))
    return bad_value(err, o->type == CS_OPT_FLAG ? "--%s given twice" : "--%s given twice (it takes one value)",
                     o->name);
  g_hash_table_add(c->seen, (gpointer)o->name);
  if (!output_only(c, o))
    cs_run_config_option(c->run, o->name, o->type == CS_OPT_FLAG ? NULL : value ? value : "");
  return set_value(o, value ? value : "", err);
}

/* ---- parsing ---- */

/* GLib drops the value of a flag given as --flag=VALUE without a word:
 * such a word is refused here, before GLib sees it. */
static bool flags_without_values(const cs_cli *c, int argc, char **argv, GError **err)
{
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    const char *eq = g_str_has_prefix(argv[i], "--") ? strchr(argv[i], '=') : NULL;
    if (!eq)
      continue;
    char *name = g_strndup(argv[i], (gsize)(eq - argv[i]));
    const cs_opt *o = lookup(c, name);
    bool is_flag = (o && o->type == CS_OPT_FLAG) || !strcmp(name, "--help") || !strcmp(name, "--help-all");
    g_free(name);
    if (is_flag)
      return bad_value(err, "%.*s takes no value (given '%s')", (int)(eq - argv[i]), argv[i], eq + 1);
  }
  return true;
}

/* The command's options, then --help and --help-all (GLib's own help is
 * off: it would print and exit as soon as it met --help, accepting any
 * nonsense after it; ours is printed once everything else has parsed). */
static GOptionEntry *entries_of(cs_cli *c, gboolean *help)
{
  GOptionEntry *e = g_new0(GOptionEntry, c->opts->len + 3);
  for (guint i = 0; i < c->opts->len; i++) {
    const cs_opt *o = g_ptr_array_index(c->opts, i);
    e[i] = (GOptionEntry){o->name, o->short_name, o->type == CS_OPT_FLAG ? G_OPTION_FLAG_NO_ARG : 0,
                          G_OPTION_ARG_CALLBACK, (gpointer)on_option, o->help, o->arg};
  }
  e[c->opts->len] = (GOptionEntry){"help", 'h', 0, G_OPTION_ARG_NONE, help, "show help options", NULL};
  e[c->opts->len + 1] = (GOptionEntry){"help-all", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, help, NULL, NULL};
  return e;
}

/* --help: the help text on stdout and exit 0, as GLib's own would. */
static G_NORETURN void print_help_and_exit(GOptionContext *ctx)
{
  char *text = g_option_context_get_help(ctx, TRUE, NULL);
  fputs(text, stdout);
  g_free(text);
  fflush(stdout);
  exit(0);
}

static void set_defaults(cs_cli *c)
{
  c->o_send = c->o_recv = NOT_GIVEN;
  c->link_bw = c->link_lat = NOT_GIVEN;
  c->cycles = c->net_lat = c->shm_lat = NOT_GIVEN;
  c->stack_kib = CS_DEFAULT_STACK_KIB;
  c->seed = 1;
}

/* ---- two paths naming one file ---- */

/* Where path leads: the file itself when it exists, else its folder's real
 * path and its name, else the path made absolute (newly allocated). */
static char *canonical_path(const char *path)
{
  char *real = realpath(path, NULL);
  if (real) {
    char *copy = g_strdup(real);
    free(real);
    return copy;
  }
  char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
  char *real_dir = realpath(dir, NULL);
  char *out = real_dir ? g_build_filename(real_dir, base, NULL) : g_canonicalize_filename(path, NULL);
  free(real_dir);
  g_free(dir);
  g_free(base);
  return out;
}

static bool same_file(const char *a, const char *b)
{
  struct stat sa, sb;
  if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  char *ca = canonical_path(a), *cb = canonical_path(b);
  bool same = strcmp(ca, cb) == 0;
  g_free(ca);
  g_free(cb);
  return same;
}

/* The file a platform spec names (file:PATH or PATH.xml), or NULL. */
static const char *platform_file_of(const cs_cli *c)
{
  if (!c->platform)
    return NULL;
  if (g_str_has_prefix(c->platform, "file:"))
    return c->platform + strlen("file:");
  return g_str_has_suffix(c->platform, ".xml") ? c->platform : NULL;
}

bool cs_cli_input_not_output(const cs_cli *c, const char *what, const char *path, GError **err)
{
  for (guint i = 0; path && i < c->opts->len; i++) {
    const cs_opt *o = g_ptr_array_index(c->opts, i);
    const char *out = o->type == CS_OPT_PATH_OUT ? *(char **)o->target : NULL;
    if (out && same_file(out, path))
      return cs_input_error(err, "--%s %s would overwrite %s %s (the same file)", o->name, out, what, path);
  }
  return true;
}

/* No two path options name one file: two outputs would lose one of them,
 * an output on an input would overwrite what the run reads. */
static bool paths_distinct(const cs_cli *c, GError **err)
{
  for (guint i = 0; i < c->opts->len; i++) {
    const cs_opt *a = g_ptr_array_index(c->opts, i);
    const char *pa = a->type == CS_OPT_PATH_OUT ? *(char **)a->target : NULL;
    for (guint j = i + 1; pa && j < c->opts->len; j++) {
      const cs_opt *b = g_ptr_array_index(c->opts, j);
      const char *pb = b->type == CS_OPT_PATH_OUT ? *(char **)b->target : NULL;
      if (pb && same_file(pa, pb))
        return cs_input_error(err, "--%s %s and --%s %s name the same file (one output would be lost)", a->name, pa,
                              b->name, pb);
    }
  }
  for (guint i = 0; i < c->opts->len; i++) {
    const cs_opt *o = g_ptr_array_index(c->opts, i);
    char what[64];
    snprintf(what, sizeof what, "--%s", o->name);
    if ((o->type == CS_OPT_PATH_IN || o->type == CS_OPT_PATH_STREAM) && *(char **)o->target &&
        !cs_cli_input_not_output(c, what, *(char **)o->target, err))
      return false;
  }
  return cs_cli_input_not_output(c, "--platform", platform_file_of(c), err);
}

/* The missing folders of the output paths, made (and kept in c->made_dirs). */
static bool make_output_folders(const cs_cli *c, GError **err)
{
  for (guint i = 0; i < c->opts->len; i++) {
    const cs_opt *o = g_ptr_array_index(c->opts, i);
    char what[64];
    snprintf(what, sizeof what, "--%s", o->name);
    if (o->type == CS_OPT_PATH_OUT && *(char **)o->target &&
        !cs_make_parent_folders(what, *(char **)o->target, c->made_dirs, err))
      return false;
  }
  return true;
}

/* After a successful parse: the positional arguments and the seed into the
 * run's configuration, and the missing folders of the output paths made. */
static bool finish_parse(cs_cli *c, GError **err)
{
  for (size_t i = 0; c->rest[i]; i++)
    g_ptr_array_add(c->run->tokens, g_strdup(c->rest[i]));
  c->run->has_seed = (c->groups & CS_CLI_SEED) != 0;
  c->run->seed = c->seed;
  if (c->timeline && !g_str_has_suffix(c->timeline, ".png"))
    return cs_input_error(err, "--timeline %s: the timeline is a PNG image, name it FILE.png", c->timeline);
  if (!paths_distinct(c, err) || !cs_cli_expect_parse(c, err))
    return false;
  if (c->trace || c->timeline)
    c->tracer = cs_trace_new(c->trace != NULL, c->timeline != NULL);
  return make_output_folders(c, err);
}

int cs_cli_parse(cs_cli *c, const char *cmd, unsigned groups, const cs_opt *opts, const char *parameter_string,
                 const char *summary, const char *description, int argc, char **argv)
{
  memset(c, 0, sizeof *c);
  c->cmd = cmd;
  c->groups = groups;
  c->seen = g_hash_table_new(g_str_hash, g_str_equal);
  c->group_of = g_hash_table_new(g_str_hash, g_str_equal);
  c->opts = g_ptr_array_new_with_free_func(g_free);
  c->run = cs_run_config_new(cmd);
  c->made_dirs = g_ptr_array_new_with_free_func(g_free);
  set_defaults(c);
  for (const cs_opt *o = opts; o && o->name; o++)
    g_ptr_array_add(c->opts, g_memdup2(o, sizeof *o));
  add_common(c);
  cs_option_query_answer(c->opts);
  char *title = g_strdup_printf("- %s", summary ? summary : cmd);
  GOptionContext *ctx = g_option_context_new(parameter_string ? parameter_string : "");
  g_option_context_set_summary(ctx, title + 2);
  g_free(title);
  if (description)
    g_option_context_set_description(ctx, description);
  GOptionGroup *group = g_option_group_new(cmd, cmd, "", c, NULL);
  gboolean help = FALSE; /* --help or --help-all */
  GOptionEntry *entries = entries_of(c, &help);
  g_option_group_add_entries(group, entries);
  g_option_context_set_main_group(ctx, group);
  g_option_context_set_help_enabled(ctx, FALSE);
  char **args = g_new0(char *, argc + 1);
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup(argv[i]);
  g_free(args[0]);
  args[0] = g_strdup_printf("collsim %s", cmd);
  GError *e = NULL;
  int rc = 0;
  if (!flags_without_values(c, argc, args, &e) || !g_option_context_parse_strv(ctx, &args, &e)) {
    fprintf(stderr, "collsim %s: error: %s (see collsim %s --help)\n", cmd, e->message, cmd);
    g_error_free(e);
    rc = 2;
  } else if (help) {
    print_help_and_exit(ctx);
  } else {
    c->rest = g_strdupv(args + 1);
    c->fmt = !c->format || strcmp(c->format, "table") == 0 ? CS_FORMAT_TABLE
             : strcmp(c->format, "csv") == 0            ? CS_FORMAT_CSV
                                                         : CS_FORMAT_JSON;
    if (!finish_parse(c, &e)) {
      fprintf(stderr, "collsim %s: error: %s\n", cmd, e->message);
      g_error_free(e);
      rc = 2;
    }
  }
  g_strfreev(args);
  g_option_context_free(ctx);
  g_free(entries);
  return rc;
}

void cs_cli_free(cs_cli *c)
{
  g_free(c->format);
  g_free(c->out);
  g_free(c->model);
  g_free(c->factory);
  g_free(c->semantics);
  g_free(c->engine);
  g_free(c->loggops);
  g_free(c->platform);
  g_free(c->torus);
  g_free(c->net);
  g_free(c->cluster);
  g_free(c->trace);
  g_free(c->timeline);
  for (int i = 0; i < CS_CLI_NEXPECT; i++)
    g_free(c->expect[i]);
  cs_cli_expect_free(c);
  cs_trace_free(c->tracer);
  if (c->cfg)
    g_ptr_array_free(c->cfg, TRUE);
  for (guint i = 0; c->opts && i < c->opts->len; i++) {
    const cs_opt *o = g_ptr_array_index(c->opts, i);
    bool common = o->target >= (void *)c && o->target < (void *)(c + 1);
    if (common)
      continue;
    if (o->type == CS_OPT_STRING || o->type == CS_OPT_CHOICE || o->type == CS_OPT_PATH_IN ||
        o->type == CS_OPT_PATH_STREAM || o->type == CS_OPT_PATH_OUT)
      g_clear_pointer((char **)o->target, g_free);
    else if (o->type == CS_OPT_LIST && *(GPtrArray **)o->target)
      g_clear_pointer((GPtrArray **)o->target, g_ptr_array_unref);
  }
  if (c->opts)
    g_ptr_array_free(c->opts, TRUE);
  if (c->seen)
    g_hash_table_destroy(c->seen);
  if (c->group_of)
    g_hash_table_destroy(c->group_of);
  cs_remove_made_folders(c->made_dirs);
  if (c->made_dirs)
    g_ptr_array_free(c->made_dirs, TRUE);
  cs_run_config_free(c->run);
  g_strfreev(c->rest);
  memset(c, 0, sizeof *c);
}

bool cs_cli_given(const cs_cli *c, const char *name) { return g_hash_table_contains(c->seen, name); }

/* ---- errors ---- */

/* Bad input: our input domain, GLib's option errors, and the readers of
 * user files (tree scripts, experiment files). */
int cs_exit_status(const GError *e)
{
  if (!e)
    return 1;
  return e->domain == CS_INPUT_ERROR || e->domain == G_OPTION_ERROR || e->domain == CS_TS_ERROR ||
                 e->domain == CS_EXPERIMENT_ERROR
             ? 2
             : 1;
}

int cs_cli_fail(const cs_cli *c, const GError *e)
{
  const char *msg = e ? e->message : "unknown failure";
  const char *nl = strchr(msg, '\n');
  fprintf(stderr, "collsim %s: error: %.*s\n", c->cmd, nl ? (int)(nl - msg) : (int)strlen(msg), msg);
  return cs_exit_status(e);
}

int cs_cli_usage(const cs_cli *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  fprintf(stderr, "collsim %s: error: %s\n", c->cmd, msg);
  g_free(msg);
  return 2;
}

/* ---- where options have an effect ---- */

/* The value an option was given as (NULL: not given, or not a text). */
static const char *given_text(const cs_cli *c, const char *name)
{
  const cs_opt *o = option_named(c, name);
  if (!o || !cs_cli_given(c, name))
    return NULL;
  return o->type == CS_OPT_STRING || o->type == CS_OPT_CHOICE ? *(char **)o->target : "";
}

static bool in_list(const char *value, const char *list)
{
  char **items = g_strsplit(list, ",", -1);
  bool found = value && g_strv_contains((const char *const *)items, value);
  g_strfreev(items);
  return found;
}

static bool term_holds(const cs_cli *c, const char *term, const char *op)
{
  if (g_str_has_prefix(term, "op="))
    return in_list(op, term + 3);
  if (term[0] == '+' || term[0] == '!')
    return cs_cli_given(c, term + 1) == (term[0] == '+');
  const char *eq = strchr(term, '=');
  g_return_val_if_fail(eq && eq > term, true);
  bool negated = eq[-1] == '!';
  char *name = g_strndup(term, (gsize)(eq - term - negated));
  const char *value = given_text(c, name);
  g_free(name);
  return negated ? !value || !in_list(value, eq + 1) : in_list(value, eq + 1);
}

static bool rule_holds(const cs_cli *c, const char *when, const char *op)
{
  char **alternatives = g_strsplit(when, " | ", -1);
  bool holds = false;
  for (size_t a = 0; !holds && alternatives[a]; a++) {
    char **terms = g_strsplit(alternatives[a], " ", -1);
    holds = true;
    for (size_t t = 0; holds && terms[t]; t++)
      holds = !*terms[t] || term_holds(c, terms[t], op);
    g_strfreev(terms);
  }
  g_strfreev(alternatives);
  return holds;
}

/* "a, b or c" of the comma-separated list. */
static void append_alternatives(GString *s, const char *list)
{
  char **items = g_strsplit(list, ",", -1);
  guint n = g_strv_length(items);
  for (guint i = 0; i < n; i++)
    g_string_append_printf(s, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ", items[i]);
  g_strfreev(items);
}

/* "--name", or "-f" for a one-letter name. */
static void append_option(GString *s, const char *name, size_t len)
{
  g_string_append_printf(s, "%s%.*s", len == 1 ? "-" : "--", (int)len, name);
}

/* One term in words: "to comm split or ids", "with --timed", ... */
static void describe_term(GString *s, const cs_cli *c, const char *term)
{
  if (g_str_has_prefix(term, "op=")) {
    const char *space = strchr(c->cmd, ' ');
    g_string_append_printf(s, "to %.*s ", space ? (int)(space - c->cmd) : (int)strlen(c->cmd), c->cmd);
    append_alternatives(s, term + 3);
  } else if (term[0] == '+' || term[0] == '!') {
    g_string_append(s, term[0] == '+' ? "with " : "without ");
    append_option(s, term + 1, strlen(term + 1));
  } else {
    const char *eq = strchr(term, '=');
    bool negated = eq[-1] == '!';
    g_string_append(s, negated ? "without " : "with ");
    append_option(s, term, (size_t)(eq - term - negated));
    g_string_append_c(s, ' ');
    append_alternatives(s, eq + 1);
  }
}

static char *describe_when(const cs_cli *c, const char *when)
{
  GString *s = g_string_new(NULL);
  char **alternatives = g_strsplit(when, " | ", -1);
  for (size_t a = 0; alternatives[a]; a++) {
    char **terms = g_strsplit(alternatives[a], " ", -1);
    g_string_append(s, a ? ", or " : "");
    for (size_t t = 0; terms[t]; t++) {
      g_string_append(s, t ? " " : "");
      describe_term(s, c, terms[t]);
    }
    g_strfreev(terms);
  }
  g_strfreev(alternatives);
  return g_string_free(s, FALSE);
}

/* The options a name of a rule stands for (a group: every option of it). */
static bool names_option(const cs_cli *c, const char *name, const cs_opt *o)
{
  static const struct {
    const char *name;
    unsigned group;
  } groups[] = {{"@engine", CS_CLI_ENGINE}, {"@platform", CS_CLI_PLATFORM}, {"@trace", CS_CLI_TRACE}};
  for (size_t g = 0; g < G_N_ELEMENTS(groups); g++)
    if (strcmp(name, groups[g].name) == 0)
      return GPOINTER_TO_UINT(g_hash_table_lookup(c->group_of, o->name)) == groups[g].group;
  return strcmp(name, o->name) == 0;
}

int cs_cli_check_rules(const cs_cli *c, const cs_opt_rule *rules, const char *op)
{
  for (const cs_opt_rule *r = rules; r && r->names; r++) {
    if (rule_holds(c, r->when, op))
      continue;
    char **names = g_strsplit(r->names, " ", -1);
    const char *offender = NULL;
    for (guint i = 0; !offender && i < c->opts->len; i++) {
      const cs_opt *o = g_ptr_array_index(c->opts, i);
      for (size_t k = 0; !offender && names[k]; k++)
        if (cs_cli_given(c, o->name) && names_option(c, names[k], o))
          offender = o->name;
    }
    g_strfreev(names);
    if (offender) {
      char *where = describe_when(c, r->when);
      int rc = cs_cli_usage(c, "%s%s has no effect here: it applies only %s", strlen(offender) == 1 ? "-" : "--",
                            offender, where);
      g_free(where);
      return rc;
    }
  }
  return 0;
}

/* ---- platform ---- */

static void append_quantity(GString *s, const char *key, double v, cs_quantity q)
{
  if (isnan(v))
    return;
  g_string_append_printf(s, "%s%s=", strchr(s->str, '/') ? "," : "/", key);
  cs_format_quantity(s, v, q);
}

/* The spec the aliases stand for. */
static char *alias_spec(const cs_cli *c, const char *default_spec)
{
  if (c->net)
    return g_strdup(c->net);
  if (c->cluster) {
    GString *s = g_string_new("smp:");
    g_string_append(s, c->cluster);
    append_quantity(s, "cycles", c->cycles, CS_QTY_NUMBER);
    append_quantity(s, "net_lat", c->net_lat, CS_QTY_TIME);
    append_quantity(s, "shm_lat", c->shm_lat, CS_QTY_TIME);
    return g_string_free(s, FALSE);
  }
  if (c->torus || (!c->platform && default_spec && g_str_has_prefix(default_spec, "torus:"))) {
    GString *s = g_string_new(NULL);
    g_string_printf(s, "torus:%s/%lld", c->torus ? c->torus : "auto", (long long)(c->cores ? c->cores : 4));
    append_quantity(s, "bw", c->link_bw, CS_QTY_BANDWIDTH);
    append_quantity(s, "lat", c->link_lat, CS_QTY_TIME);
    return g_string_free(s, FALSE);
  }
  return c->platform ? g_strdup(c->platform) : default_spec ? g_strdup(default_spec) : NULL;
}

static bool aliases_consistent(const cs_cli *c, GError **err)
{
  int named = (c->platform != NULL) + (c->torus != NULL) + (c->net != NULL) + (c->cluster != NULL);
  if (named > 1)
    return cs_input_error(err, "give one of --platform, --torus, --net and --cluster");
  bool torus_opts = !isnan(c->link_bw) || !isnan(c->link_lat);
  bool smp_opts = !isnan(c->cycles) || !isnan(c->net_lat) || !isnan(c->shm_lat);
  if (torus_opts && (c->net || c->cluster || c->platform))
    return cs_input_error(err, "--link-bw and --link-lat set a torus's links; with --platform give them as "
                       "parameters (e.g. torus:8x8x16/4,bw=425MBps,lat=100ns)");
  if (smp_opts && !c->cluster && !(c->platform && g_str_has_prefix(c->platform, "smp:")))
    return cs_input_error(err, "--cycles, --net-lat and --shm-lat apply to smp platforms (--cluster)");
  return true;
}

/* --cycles/--net-lat/--shm-lat given with --platform smp:...: as parameters. */
static char *with_smp_params(const cs_cli *c, char *spec)
{
  if (!c->platform || !g_str_has_prefix(spec, "smp:"))
    return spec;
  GString *s = g_string_new(spec);
  g_free(spec);
  append_quantity(s, "cycles", c->cycles, CS_QTY_NUMBER);
  append_quantity(s, "net_lat", c->net_lat, CS_QTY_TIME);
  append_quantity(s, "shm_lat", c->shm_lat, CS_QTY_TIME);
  return g_string_free(s, FALSE);
}

/* A platform file named relative to the source tree (file:PATH, or a path
 * ending in .xml) that is not in the working folder: found in the data
 * folders (sim/contracts/input_path.h), or an error naming the places. */
static bool with_data_file(char **spec, GError **err)
{
  bool prefixed = g_str_has_prefix(*spec, "file:");
  const char *path = prefixed ? *spec + strlen("file:") : *spec;
  if (!(prefixed || g_str_has_suffix(path, ".xml")) || g_file_test(path, G_FILE_TEST_EXISTS))
    return true;
  char *found = cs_input_path("--platform", path, err);
  if (!found)
    return false;
  char *resolved = prefixed ? g_strconcat("file:", found, NULL) : g_strdup(found);
  g_free(found);
  g_free(*spec);
  *spec = resolved;
  return true;
}

cs_platform *cs_cli_platform(const cs_cli *c, const char *default_spec, GError **err)
{
  if (!aliases_consistent(c, err))
    return NULL;
  char *spec = with_smp_params(c, alias_spec(c, default_spec));
  if (!spec) {
    cs_input_error(err, "--platform SPEC is required (e.g. --platform percs:64,16,16; collsim platform --list)");
    return NULL;
  }
  if (!with_data_file(&spec, err)) {
    g_free(spec);
    return NULL;
  }
  GError *e = NULL;
  cs_platform *p = cs_platform_parse(spec, &e);
  if (!p) {
    const char *opt = c->torus ? "--torus" : c->net ? "--net" : c->cluster ? "--cluster" : "--platform";
    const char *given = c->torus ? c->torus : c->net ? c->net : c->cluster ? c->cluster : spec;
    const char *file = g_str_has_prefix(spec, "file:") ? spec + strlen("file:") : spec;
    if (g_str_has_prefix(e->message, file)) /* a platform file's message names the file already */
      g_set_error(err, CS_INPUT_ERROR, 1, "--platform %s", e->message);
    else
      g_set_error(err, CS_INPUT_ERROR, 1, "bad %s '%s': %s", opt, given, e->message);
    g_error_free(e);
    g_free(spec);
    return NULL;
  }
  g_free(spec);
  if (c->cores && !p->family->cores_option) {
    cs_input_error(err, "--cores applies to a torus or an XML file; %s platforms give their cores in the spec",
                p->family->kind);
    cs_platform_free(p);
    return NULL;
  }
  if (c->cores)
    p->cores = (int)c->cores;
  return p;
}

/* ---- engine ---- */

/* What the run resolved, for its configuration columns. */
static void note_engine(cs_run_config *run, const cs_platform *p, const cs_engine_config *ec, const GPtrArray *cfg)
{
  g_free(run->platform);
  run->platform = p ? cs_platform_describe(p) : NULL;
  g_free(run->model);
  run->model = g_strdup(ec->model);
  run->o_send = ec->o_send;
  run->o_recv = ec->o_recv;
  g_free(run->cfg);
  run->cfg = NULL;
  if (cfg && cfg->len) {
    char **v = cs_strv_view(cfg);
    run->cfg = g_strjoinv(" ", v);
    g_free(v);
  }
}

/* SimGrid parses a number where its setting takes one and keeps it, sign
 * and all (contexts/stack-size:-5 is accepted there); none of its numeric
 * settings means anything negative or infinite, so collsim refuses them. */
static bool cfg_values_in_range(const GPtrArray *cfg, GError **err)
{
  for (guint i = 0; cfg && i < cfg->len; i++) {
    const char *setting = g_ptr_array_index(cfg, i);
    const char *colon = strchr(setting, ':');
    if (!colon || !colon[1])
      continue; /* SimGrid's own check names the missing value */
    char *end = NULL;
    double v = g_ascii_strtod(colon + 1, &end);
    if (*end)
      continue; /* not a number: SimGrid checks its words */
    if (!isfinite(v) || v < 0)
      return cs_input_error(err, "--cfg %s: a SimGrid setting's number must be finite and not negative", setting);
  }
  return true;
}

bool cs_cli_engine(const cs_cli *c, const cs_platform *p, double default_o_send, double default_o_recv,
                   cs_engine_config *ec, GError **err)
{
  if (!cfg_values_in_range(c->cfg, err))
    return false;
  bool native = cs_cli_native(c);
  if (c->model && strncmp(c->model, "loggops", 7) == 0 && !native)
    return cs_input_error(err, "--model %s is the native engine's model, not SimGrid's (--engine native)", c->model);
  cs_engine_config_defaults(ec);
  bool mpi = c->semantics && strcmp(c->semantics, "mpi") == 0;
  ec->semantics = mpi ? CS_SEMANTICS_MPI : CS_SEMANTICS_EAGER;
  if (mpi) /* SMPI injects no overhead by default (smpi/os, smpi/or: 0) */
    default_o_send = default_o_recv = 0;
  bool platform_overheads = p && !mpi;
  ec->o_send = !isnan(c->o_send) ? c->o_send : platform_overheads && !isnan(p->o_send) ? p->o_send : default_o_send;
  ec->o_recv = !isnan(c->o_recv) ? c->o_recv : platform_overheads && !isnan(p->o_recv) ? p->o_recv : default_o_recv;
  ec->model = native ? "loggops" : c->model ? c->model : mpi ? "SMPI" : p && p->model ? p->model : "LV08";
  cs_procs_engine native_model;
  if (native && cs_cli_procs_engine(c, &native_model, NULL)) /* the overheads are LogGOPS's o */
    ec->o_send = ec->o_recv = (double)native_model.loggops.o * 1e-9;
  ec->stack_kib = (int)c->stack_kib;
  ec->factory = c->factory;
  ec->crosstraffic = c->crosstraffic;
  ec->quiet = c->quiet;
  if (p) {
    ec->cores = p->cores;
    ec->validate_platform = p->user_file;
    ec->local_copy_bw = p->local_copy_bw;
    ec->host_channels = p->host_channels;
  }
  if (c->tracer)
    cs_trace_attach(c->tracer, p, ec);
  note_engine(c->run, p, ec, c->cfg);
  if (c->cfg && c->cfg->len) {
    ec->extra_cfg = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < c->cfg->len; i++)
      g_ptr_array_add(ec->extra_cfg, g_strdup_printf("--cfg=%s", (char *)g_ptr_array_index(c->cfg, i)));
    if (!cs_engine_check_cfg(ec, err)) {
      cs_cli_engine_clear(ec);
      return false;
    }
  }
  return true;
}

bool cs_cli_native(const cs_cli *c) { return c->engine && strcmp(c->engine, "native") == 0; }

bool cs_cli_procs_engine(const cs_cli *c, cs_procs_engine *e, GError **err)
{
  memset(e, 0, sizeof *e);
  e->native = cs_cli_native(c);
  cs_loggops_defaults(&e->loggops);
  if (e->native && c->model && strncmp(c->model, "loggops-", 8) == 0)
    return cs_input_error(err, "--model %s runs schedules only (collsim collective --timed); processes on "
                          "the native engine have loggops", c->model);
  if (e->native && c->model && strcmp(c->model, "loggops") != 0)
    return cs_input_error(err, "the native engine has no model %s (its model: loggops; %s is SimGrid's)", c->model,
                          c->model);
  return !c->loggops || cs_loggops_parse(c->loggops, &e->loggops, err);
}

void cs_cli_engine_clear(cs_engine_config *ec)
{
  if (ec->extra_cfg)
    g_ptr_array_free(ec->extra_cfg, TRUE);
  ec->extra_cfg = NULL;
}

/* ---- the run's size; message trace ---- */

/* Around the new image of a large run (hugepages.h): the folders this
 * image made go, the new image makes them again and removes them if it is
 * stopped; made again here if the exec failed. */
static void remove_output_folders(void *cli)
{
  const cs_cli *c = cli;
  cs_remove_made_folders(c->made_dirs);
  g_ptr_array_set_size(c->made_dirs, 0);
}

static void remake_output_folders(void *cli)
{
  GError *e = NULL;
  if (!make_output_folders(cli, &e)) /* they were made a moment ago: the run's write will say why */
    g_clear_error(&e);
}

bool cs_cli_run_size(const cs_cli *c, int64_t ranks, GError **err)
{
  if (c->timeline && ranks > CS_TIMELINE_MAX_RANKS)
    return cs_input_error(err, "--timeline draws runs of at most %d ranks (this one has %lld); --trace FILE records "
                          "any run", CS_TIMELINE_MAX_RANKS, (long long)ranks);
  cs_hugepages_for(ranks, remove_output_folders, remake_output_folders, (void *)c);
  return true;
}

int cs_cli_trace_write(const cs_cli *c)
{
  GError *e = NULL;
  bool ok = !c->tracer || ((!c->timeline || cs_trace_write_timeline(c->tracer, c->timeline, &e)) &&
                           (!c->trace || cs_trace_write_csv(c->tracer, c->trace, &e)));
  int rc = ok ? 0 : cs_cli_fail(c, e);
  g_clear_error(&e);
  return rc;
}

/* ---- output ---- */

int cs_cli_emit_text(const cs_cli *c, const char *text, size_t len)
{
  if (!c->out) {
    fwrite(text, 1, len, stdout);
    fflush(stdout);
    return 0;
  }
  GError *e = NULL;
  if (!cs_write_file_atomic(c->out, text, len, &e)) {
    int rc = cs_cli_fail(c, e);
    g_error_free(e);
    return rc;
  }
  return 0;
}

int cs_cli_emit(const cs_cli *c, cs_record *const *records, size_t n, const char *const *columns, const char *title)
{
  const char **all = c->with_config ? cs_config_with_columns(columns) : NULL;
  for (size_t i = 0; all && i < n; i++)
    cs_run_config_add(c->run, records[i]);
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  cs_record_write(mem, c->fmt, records, n, all ? all : columns, !c->no_header, title, c->wide);
  g_free(all);
  fclose(mem);
  int rc = cs_cli_emit_text(c, buf, len);
  free(buf);
  return rc ? rc : cs_cli_expect_check(c, records, n, columns);
}
