/* `collsim collective`: one collective on any platform (seed 001), through
 * the collective pipeline (sim/drivers/collective.c).
 *
 *   untimed (default)  the pattern-generator: messages and bytes;
 *   --links            ... routed by linkUsage over the platform's own routes,
 *                      summarised per tier (L1, L2, T, X, Y, Z, eth, intra);
 *   --timed            SimGrid actors execute the schedule; the simulated time
 *                      is printed beside the algorithm's own cost model
 *                      (sim/contracts/cost.h) and its formula, and the
 *                      messages the actors sent are checked against the
 *                      pattern-generator's, node pair by node pair;
 *   --verify           the schedule is replayed first (who holds what);
 *   --engine native    timed runs on the native LogGOPS engine (no platform
 *                      needed: --ranks P), --loggops L,o,g,G,S,O;
 *   --goal FILE        the schedule of every rank written as GOAL text;
 *   --goal-in FILE     a GOAL schedule instead of --coll/--algo.
 * Bad input: one message naming the problem, exit status 2, nothing written. */
#include "sim/cli/commands.h"
#include "algorithms/selectors/selector.h"
#include "sim/checks/tree_script_check.h"
#include "sim/cli/columns.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/input_path.h"
#include "sim/drivers/collective.h"
#include "sim/engine/native/loggops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct coll_opts {
  char *coll, *algo, *selector, *batch, *script, *per_link, *pairs, *keep_platform;
  char *engine, *loggops, *goal, *goal_in;
  int64_t ranks;
  uint64_t block, bytes, segment;
  double gamma;
  bool list, models, links, timed, verify, list_columns;
} coll_opts;

static const char *const coll_names[] = {"scatter", "gather",    "bcast",    "allgather", "reduce-scatter",
                                         "reduce",  "allreduce", "alltoall", "barrier",   NULL};
static const char *const engines[] = {"simgrid", "native", NULL};

static void list_algorithms(void)
{
  printf("%-15s %-22s %s\n", "collective", "algorithm", "description");
  for (int c = 0; c < CS_NCOLLS; c++)
    for (size_t i = 0; i < cs_coll_algo_count(); i++) {
      const cs_coll_algo *a = cs_coll_algo_at(i);
      if (a->coll == (cs_coll)c)
        printf("%-15s %-22s %s\n", cs_coll_name(a->coll), a->name, a->summary);
    }
  printf("\nscatter, gather, allgather and reduce-scatter take --block (data per rank), alltoall --block (data per "
         "pair of ranks); bcast, reduce and allreduce take --bytes (whole buffer); barrier takes no size.\n");
  printf("\n--algo auto --selector NAME: the algorithm the library would run (decision table: --list --selector "
         "NAME)\n");
  for (size_t i = 0; i < cs_selector_count(); i++)
    printf("selector %-8s %s\n", cs_selector_at(i)->name, cs_selector_at(i)->description);
}

/* --list --models: each algorithm's cost formula as a Markdown table
 * (docs/cost-models.md), then the symbols. */
static void list_models(void)
{
  printf("| collective | algorithm | cost model (seconds) |\n|---|---|---|\n");
  for (int c = 0; c < CS_NCOLLS; c++)
    for (size_t i = 0; i < cs_coll_algo_count(); i++) {
      const cs_coll_algo *a = cs_coll_algo_at(i);
      if (a->coll == (cs_coll)c)
        printf("| %s | %s | %s |\n", cs_coll_name(a->coll), a->name, a->cost_formula);
    }
  printf("\nSymbols (sim/contracts/cost.h):\n");
  for (int i = 0; cs_cost_legend[i]; i++)
    printf("- %s\n", cs_cost_legend[i]);
}

static char *algo_names(cs_coll c)
{
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < cs_coll_algo_count(); i++)
    if (cs_coll_algo_at(i)->coll == c)
      g_string_append_printf(s, "%s%s", s->len ? ", " : "", cs_coll_algo_at(i)->name);
  return g_string_free(s, FALSE);
}

/* The algorithm named by (coll, algo), or an error listing the known ones. */
static const cs_coll_algo *find_algo(const char *coll, const char *algo, GError **err)
{
  cs_coll c;
  if (!cs_coll_from_name(coll, &c)) {
    cs_input_error(err, "unknown collective '%s' (%s)", coll, cs_coll_names());
    return NULL;
  }
  const cs_coll_algo *a = cs_coll_algo_find(c, algo);
  if (!a) {
    char *names = algo_names(c);
    cs_input_error(err, "unknown algorithm '%s' for %s (known: %s)", algo, coll, names);
    g_free(names);
  }
  return a;
}

/* --algo auto: the selector named, which must cover the collective. */
static bool auto_selector(const coll_opts *o, cs_coll_item *it, GError **err)
{
  if (!o->selector) {
    char *names = cs_selector_names();
    cs_input_error(err, "--algo auto needs --selector NAME (one of: %s)", names);
    g_free(names);
    return false;
  }
  const cs_selector *s = cs_selector_find(o->selector);
  if (!s) {
    char *names = cs_selector_names();
    cs_input_error(err, "unknown selector '%s' (known: %s)", o->selector, names);
    g_free(names);
    return false;
  }
  cs_coll c;
  if (!cs_coll_from_name(o->coll, &c))
    return cs_input_error(err, "unknown collective '%s' (%s)", o->coll, cs_coll_names());
  if (!s->data->measure[c].name) {
    char *covered = cs_selector_covered(s);
    cs_input_error(err, "selector %s does not cover %s; it covers %s", s->name, o->coll, covered);
    g_free(covered);
    return false;
  }
  it->selector = s;
  it->auto_coll = c;
  return true;
}

/* The collective an item runs: its algorithm's, or the one --algo auto waits to choose for. */
static cs_coll item_coll(const cs_coll_item *it) { return it->algo ? it->algo->coll : it->auto_coll; }

static bool one_item(const coll_opts *o, cs_coll_item *it, GError **err)
{
  if (!o->coll)
    return cs_input_error(err, "--coll is required (%s)", cs_coll_names());
  if (!o->algo)
    return cs_input_error(err, "--algo is required (see collsim collective --list)");
  if (strcmp(o->algo, "auto") == 0 ? !auto_selector(o, it, err) : !(it->algo = find_algo(o->coll, o->algo, err)))
    return false;
  if (!cs_coll_sized(item_coll(it))) {
    if (o->block || o->bytes)
      return cs_input_error(err, "%s moves no data: it takes neither --block nor --bytes", o->coll);
    return true;
  }
  bool per_rank = cs_coll_per_rank(item_coll(it));
  const char *want = per_rank ? "--block" : "--bytes", *other = per_rank ? "--bytes" : "--block";
  uint64_t given = per_rank ? o->block : o->bytes;
  const char *what = item_coll(it) == CS_COLL_ALLTOALL ? "data per pair of ranks"
                     : per_rank                           ? "data per rank"
                                                          : "the whole buffer";
  if ((per_rank ? o->bytes : o->block) != 0)
    return cs_input_error(err, "%s takes %s (%s), not %s", o->coll, want, what, other);
  if (!given)
    return cs_input_error(err, "%s needs %s SIZE, e.g. %s %s", o->coll, want, want, per_rank ? "64KiB" : "1GiB");
  it->size = given;
  it->segment = o->segment;
  return true;
}

/* --batch FILE: one run per line, "COLL ALGO SIZE"; '#' starts a comment. */
static bool read_batch(const char *path, GArray *items, GError **err)
{
  gchar *text = NULL;
  GError *e = NULL;
  if (!cs_read_user_file(NULL, path, &text, NULL, &e)) {
    cs_input_error(err, "cannot read --batch file: %s", e->message);
    g_error_free(e);
    return false;
  }
  char **lines = g_strsplit(text, "\n", -1);
  bool ok = true;
  for (int i = 0; ok && lines[i]; i++) {
    char *hash = strchr(lines[i], '#');
    if (hash)
      *hash = 0;
    char **f = g_strsplit_set(g_strstrip(lines[i]), " \t", -1), *w[3];
    int n = 0;
    for (int j = 0; f[j]; j++)
      if (*f[j] && n++ < 3)
        w[n - 1] = f[j];
    cs_coll_item it = {0};
    char *where = g_strdup_printf("%s line %d", path, i + 1);
    if (n == 1 || n > 3)
      ok = cs_input_error(err, "%s: expected COLL ALGO SIZE (barrier: COLL ALGO)", where);
    else if (n >= 2 && !(it.algo = find_algo(w[0], w[1], &e)))
      ok = cs_input_error(err, "%s: %s", where, e->message);
    else if (n >= 2 && (n == 3) != cs_coll_sized(it.algo->coll))
      ok = cs_input_error(err, "%s: %s", where,
                          n == 3 ? "barrier takes no SIZE" : "expected COLL ALGO SIZE (barrier: COLL ALGO)");
    else if (n == 3 && !cs_parse_size(where, w[2], 1, 0 - (uint64_t)1, &it.size, err))
      ok = false;
    else if (n >= 2)
      g_array_append_val(items, it);
    g_clear_error(&e);
    g_free(where);
    g_strfreev(f);
  }
  if (ok && items->len == 0)
    ok = cs_input_error(err, "--batch file %s names no run", path);
  g_strfreev(lines);
  g_free(text);
  return ok;
}

/* --algo auto on p ranks: the selector's choice, or an error naming the
 * algorithm collsim lacks and the rule that chose it.  collsim's reductions
 * are sums: commutative, built in. */
static bool select_algo(cs_coll_item *it, int64_t p, GError **err)
{
  cs_selection *sel = g_new(cs_selection, 1);
  bool ok = it->selector->select(it->auto_coll, p, it->size, true, sel);
  if (ok && !sel->algo)
    ok = cs_input_error(err, "selector %s would run %s, which collsim lacks (%s)", it->selector->name, sel->lib_algo,
                        sel->rule);
  else if (ok && !(it->algo = cs_coll_algo_find(it->auto_coll, sel->algo)))
    ok = cs_input_error(err, "selector %s names %s %s, which collsim's registry does not have", it->selector->name,
                        cs_coll_name(it->auto_coll), sel->algo);
  if (ok)
    g_strlcpy(it->selected_by, sel->rule, sizeof it->selected_by);
  g_free(sel);
  return ok;
}

/* --list --selector NAME: the decision table. */
static int list_selector(const cs_cli *c, const char *name)
{
  const cs_selector *s = cs_selector_find(name);
  if (!s) {
    char *names = cs_selector_names();
    int rc = cs_cli_usage(c, "unknown selector '%s' (known: %s)", name, names);
    g_free(names);
    return rc;
  }
  GString *t = g_string_new(NULL);
  g_string_printf(t, "## %s: %s\n\nSource: %s.\n", s->name, s->description, s->data->source);
  cs_sel_table_markdown(s, t);
  fputs(t->str, stdout);
  g_string_free(t, TRUE);
  return 0;
}

/* Everything the runs of one invocation need, built before any work. */
typedef struct plan {
  cs_platform *platform; /* NULL: a flat machine of `ranks` ranks (no links) */
  int64_t ranks;
  cs_tree_script *script;
  cs_goal_graph *goal;
  GArray *items; /* cs_coll_item */
  cs_engine_config ec;
  bool native;
  cs_loggops_params loggops;
} plan;

static bool native_engine(const coll_opts *o) { return o->engine && strcmp(o->engine, "native") == 0; }

static bool platform_given(const cs_cli *c) { return c->platform || c->torus || c->net || c->cluster; }

/* The engine's model: loggops and its parameters on the native engine. */
static bool engine_model(const cs_cli *c, const coll_opts *o, plan *P, GError **err)
{
  P->native = native_engine(o);
  cs_loggops_defaults(&P->loggops);
  const cs_native_model *model = cs_native_model_find(c->model ? c->model : "loggops");
  if (P->native && !model)
    return cs_input_error(err, "the native engine has no model %s (its models: %s; %s is SimGrid's)", c->model,
                          cs_native_model_names(), c->model);
  if (P->native)
    cs_native_model_apply(model, &P->loggops);
  if (P->loggops.links && !platform_given(c))
    return cs_input_error(err, "--model %s serialises messages on a platform's links: give --platform", c->model);
  return !o->loggops || cs_loggops_parse(o->loggops, &P->loggops, err);
}

/* Without a platform: a flat machine of --ranks ranks or the GOAL file's
 * (untimed runs and the native engine; SimGrid needs a platform). */
static bool flat_machine(const coll_opts *o, plan *P, GError **err)
{
  if (o->links || o->per_link)
    return cs_input_error(err, "--links routes over a platform's links: give --platform (--ranks is a machine "
                          "without links)");
  if (o->keep_platform)
    return cs_input_error(err, "--keep-platform needs --platform");
  if (o->ranks && P->goal && o->ranks != (int64_t)P->goal->p)
    return cs_input_error(err, "the GOAL file %s has %u ranks but --ranks is %lld", o->goal_in, P->goal->p,
                          (long long)o->ranks);
  P->ranks = o->ranks ? o->ranks : P->goal->p;
  return true;
}

/* A GOAL schedule runs untimed (its pattern) or on the native engine: SimGrid's
 * timed runs interpret a schedule's op lists (sim/engine/sched_interp.c), and a
 * GOAL file is a dependency graph. */
static bool goal_item(const cs_cli *c, const coll_opts *o, plan *P, GError **err)
{
  if (o->timed && !P->native)
    return cs_input_error(err, "--goal-in runs untimed or on the native engine (--timed --engine native); SimGrid's "
                          "timed runs take --coll and --algo");
  if (!cs_cli_run_size(c, cs_goal_peek_ranks(o->goal_in), err)) /* before reading a large file */
    return false;
  if (!(P->goal = cs_goal_read(o->goal_in, err)))
    return false;
  cs_coll_item it = {.goal = P->goal, .goal_name = o->goal_in};
  g_array_append_val(P->items, it);
  return true;
}

/* The native engine's configuration: SimGrid's defaults (unused but for
 * the tracer's hooks) and the message trace (--trace, --timeline). */
static bool native_config(const cs_cli *c, plan *P, int64_t ranks, GError **err)
{
  cs_engine_config_defaults(&P->ec);
  if (!cs_cli_run_size(c, ranks, err))
    return false;
  if (c->tracer)
    cs_trace_attach(c->tracer, P->platform, &P->ec);
  return true;
}

static bool make_plan(const cs_cli *c, const coll_opts *o, plan *P, GError **err)
{
  P->items = g_array_new(FALSE, FALSE, sizeof(cs_coll_item));
  cs_coll_item it = {0};
  if (!engine_model(c, o, P, err))
    return false;
  if (o->goal_in ? !goal_item(c, o, P, err) : !(o->batch ? read_batch(o->batch, P->items, err) : one_item(o, &it, err)))
    return false;
  if (!o->batch && !o->goal_in)
    g_array_append_val(P->items, it);
  bool simgrid_timed = o->timed && !P->native;
  if (!platform_given(c) && o->ranks && simgrid_timed)
    return cs_input_error(err, "--ranks: SimGrid's timed runs need --platform (or --engine native)");
  if (!platform_given(c) && (o->ranks || o->goal_in) && !simgrid_timed)
    return flat_machine(o, P, err) && (!P->native || native_config(c, P, P->ranks, err));
  if (!(P->platform = cs_cli_platform(c, NULL, err)))
    return false;
  if (!cs_platform_resolved(P->platform))
    return cs_input_error(err, "collsim collective runs on every core of a platform: give the torus's shape (e.g. "
                       "torus:8x8x8/4), not auto");
  if (!cs_platform_resolve(P->platform, cs_platform_slots(P->platform), err) ||
      !cs_platform_check_size(P->platform, err))
    return false;
  if (o->script && !(P->script = cs_ts_load(o->script, err)))
    return false;
  for (guint i = 0; i < P->items->len; i++)
    g_array_index(P->items, cs_coll_item, i).script = P->script;
  if (!o->batch && it.selector && !select_algo(&g_array_index(P->items, cs_coll_item, 0), cs_platform_slots(P->platform), err))
    return false;
  if (P->native)
    return native_config(c, P, cs_platform_slots(P->platform), err);
  return cs_cli_run_size(c, cs_platform_slots(P->platform), err) &&
         cs_cli_engine(c, P->platform, 0, 0, &P->ec, err);
}

static void plan_clear(plan *P)
{
  cs_platform_free(P->platform);
  cs_ts_free(P->script);
  cs_goal_graph_free(P->goal);
  if (P->items)
    g_array_free(P->items, TRUE);
  cs_cli_engine_clear(&P->ec);
}

static int write_extra(const cs_cli *c, const char *path, GString *text)
{
  GError *e = NULL;
  if (!path || !text || cs_write_file_atomic(path, text->str, text->len, &e))
    return 0;
  int rc = cs_cli_fail(c, e);
  g_error_free(e);
  return rc;
}

static int run(const cs_cli *c, const coll_opts *o)
{
  plan P = {0};
  GError *e = NULL;
  cs_coll_outputs out = {o->pairs ? g_string_new(NULL) : NULL, o->per_link ? g_string_new(NULL) : NULL, o->goal};
  cs_coll_session *S = NULL;
  GPtrArray *records = g_ptr_array_new_with_free_func((GDestroyNotify)cs_record_free);
  bool ok = make_plan(c, o, &P, &e);
  cs_coll_options opt = {o->links || o->per_link, o->timed, o->verify, o->gamma, c->quiet, P.native, P.loggops,
                         P.ranks};
  ok = ok && (S = cs_coll_session_open(P.platform, &opt, &P.ec, &e));
  for (guint i = 0; ok && i < P.items->len; i++) {
    cs_record *r = cs_coll_run(S, &g_array_index(P.items, cs_coll_item, i), &out, &e);
    if (r)
      g_ptr_array_add(records, r);
    ok = r != NULL;
  }
  if (ok && o->keep_platform)
    ok = cs_platform_write_file(P.platform, o->keep_platform, &e);
  int rc = ok ? 0 : cs_cli_fail(c, e);
  if (rc == 0)
    rc = cs_cli_trace_write(c);
  if (rc == 0)
    rc = write_extra(c, o->pairs, out.pairs);
  if (rc == 0)
    rc = write_extra(c, o->per_link, out.per_link);
  if (rc == 0)
    rc = cs_cli_emit(c, (cs_record *const *)records->pdata, records->len, cs_record_kind_csv(&cs_coll_record_kind), NULL);
  g_clear_error(&e);
  if (out.pairs)
    g_string_free(out.pairs, TRUE);
  if (out.per_link)
    g_string_free(out.per_link, TRUE);
  g_ptr_array_free(records, TRUE);
  cs_coll_session_close(S);
  plan_clear(&P);
  return rc;
}

int cs_collective_main(int argc, char **argv)
{
  coll_opts o = {.gamma = 1e-10};
  const cs_opt opts[] = {
      {"list", 0, CS_OPT_FLAG, &o.list, NULL, "list collectives and algorithms and exit", 0, 0, 0, 0, NULL},
      {"list-columns", 0, CS_OPT_FLAG, &o.list_columns, NULL, CS_LIST_COLUMNS_HELP, 0, 0, 0, 0, NULL},
      {"models", 0, CS_OPT_FLAG, &o.models, NULL,
       "with --list: each algorithm's cost model formula (docs/cost-models.md)", 0, 0, 0, 0, NULL},
      {"coll", 'c', CS_OPT_CHOICE, &o.coll, "NAME",
       "scatter, gather, bcast, allgather, reduce-scatter, reduce, allreduce, alltoall, barrier", 0,
       0, 0, 0, coll_names},
      {"algo", 'a', CS_OPT_STRING, &o.algo, "NAME", "algorithm (see --list), or auto: as --selector's library "
       "would choose", 0, 0, 0, 0, NULL},
      {"selector", 0, CS_OPT_STRING, &o.selector, "NAME", "with --algo auto: mpich (MPICH 4.2.3) or ompi (Open MPI "
       "4.1.8) picks the algorithm; with --list: print its decision table (docs/selectors.md)", 0, 0, 0, 0, NULL},
      {"block", 0, CS_OPT_SIZE, &o.block, "SIZE", "data per rank (scatter, gather, allgather, reduce-scatter), per "
       "pair of ranks (alltoall), e.g. 64KiB", 1, 0, 0, 0, NULL},
      {"bytes", 0, CS_OPT_SIZE, &o.bytes, "SIZE", "whole buffer (bcast, reduce, allreduce), e.g. 1GiB", 1, 0, 0, 0, NULL},
      {"segment", 0, CS_OPT_SIZE, &o.segment, "SIZE", "bcast pipeline, chain, bintree: bytes per segment (default 0: "
       "no segmentation, as Open MPI's fixed decision)", 0, 0, 0, 0, NULL},
      {"batch", 0, CS_OPT_PATH_IN, &o.batch, "FILE", "untimed runs on one platform, one \"COLL ALGO SIZE\" per "
       "line (barrier: \"COLL ALGO\")", 0, 0, 0, 0, NULL},
      {"script", 0, CS_OPT_PATH_IN, &o.script, "FILE", "--algo script: the tree script (YAML, seed 002)", 0, 0, 0,
       0, NULL},
      {"links", 0, CS_OPT_FLAG, &o.links, NULL, "route the traffic: links used, min/max/total bytes per tier", 0, 0,
       0, 0, NULL},
      {"per-link", 0, CS_OPT_PATH_OUT, &o.per_link, "FILE", "also write every link's bytes and messages to a CSV "
       "(implies --links)", 0, 0, 0, 0, NULL},
      {"pairs", 0, CS_OPT_PATH_OUT, &o.pairs, "FILE", "write the node-to-node pattern (src,dst,messages,bytes) to a "
       "CSV", 0, 0, 0, 0, NULL},
      {"timed", 0, CS_OPT_FLAG, &o.timed, NULL, "run the schedule on SimGrid actors: simulated time and the "
       "algorithm's cost model",
       0, 0, 0, 0, NULL},
      {"verify", 0, CS_OPT_FLAG, &o.verify, NULL, "replay the schedule and check what every rank ends with (small "
       "p)", 0, 0, 0, 0, NULL},
      {"gamma", 0, CS_OPT_QUANTITY, &o.gamma, "S", "seconds per byte reduced (default 1e-10)", 0, 1, CS_QTY_NUMBER,
       1, NULL},
      {"keep-platform", 0, CS_OPT_PATH_OUT, &o.keep_platform, "FILE", "also write the platform XML here", 0, 0, 0,
       0, NULL},
      {"engine", 0, CS_OPT_CHOICE, &o.engine, "NAME", "engine of --timed: simgrid (default; SimGrid's flow models "
       "on the platform) or native (LogGOPS, LogGOPSim's semantics; --model loggops)", 0, 0, 0, 0, engines},
      {"loggops", 0, CS_OPT_STRING, &o.loggops, "L,o,g,G,S,O", "the native engine's LogGOPS parameters in "
       "LogGOPSim's units: ns, ns, ns, ns/byte, bytes, ns/byte (default 2500,1500,1000,6,65535,0)", 0, 0, 0, 0,
       NULL},
      {"ranks", 0, CS_OPT_INT, &o.ranks, "P", "without --platform: P ranks on a machine without links, one per "
       "node (untimed runs and --engine native)", 1, (int64_t)UINT32_MAX - 1, 0, 0, NULL},
      {"goal", 0, CS_OPT_PATH_OUT, &o.goal, "FILE", "write the schedule of every rank as GOAL text (LogGOPSim's "
       "format; lowering: sim/contracts/goal.h)", 0, 0, 0, 0, NULL},
      {"goal-in", 0, CS_OPT_PATH_STREAM, &o.goal_in, "FILE", "run a GOAL schedule (plain or gzip) instead of "
       "--coll/--algo, untimed or --timed --engine native; its num_ranks must match the platform (none needed with "
       "--engine native)", 0, 0, 0, 0,
       NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  cs_cli c;
  int rc = cs_cli_parse(&c, "collective", CS_CLI_OUTPUT | CS_CLI_ENGINE | CS_CLI_PLATFORM | CS_CLI_SEED | CS_CLI_TRACE, opts,
                        NULL, "one collective on any platform: traffic per link, timed runs (seed 001)",
                        "Examples:\n"
                        "  collsim collective --platform percs:64,16,16 --coll scatter --algo binomial --block 64KiB "
                        "--links\n"
                        "  collsim collective --platform percs:64,16,16 --coll bcast --algo two-tier --bytes 1GiB "
                        "--timed\n"
                        "Sizes: plain bytes, KiB/MiB/GiB/TiB (powers of 2), kB/MB/GB/TB (powers of 10).\n"
                        "Human-readable output uses IEC units: 1 MiB = 2^20 bytes.",
                        argc, argv);
  static const cs_opt_rule rules[] = {
      {"models", "+list"},
      {"coll algo block bytes segment timed per-link pairs selector", "!batch"},
      {"selector", "algo=auto | +list"},
      {"script", "algo=script | +batch"},
      {"@engine @trace gamma engine", "+timed"},
      {"o-send o-recv cfg stack-kib factory crosstraffic semantics", "engine!=native"},
      {"loggops", "engine=native"},
      {"ranks", "!platform !torus !net !cluster"},
      {"goal", "!batch !goal-in"},
      {"coll algo block bytes script verify batch", "!goal-in"},
      {NULL, NULL},
  };
  if (rc == 0)
    rc = cs_cli_check_rules(&c, rules, NULL);
  if (rc == 0 && c.rest[0])
    rc = cs_cli_usage(&c, "unexpected argument '%s'", c.rest[0]);
  if (rc == 0 && o.list_columns)
    rc = cs_cli_list_columns(&c);
  else if (rc == 0 && o.list && o.selector)
    rc = list_selector(&c, o.selector);
  else if (rc == 0 && o.list)
    o.models ? list_models() : list_algorithms();
  else if (rc == 0)
    rc = run(&c, &o);
  cs_cli_free(&c);
  return rc;
}
