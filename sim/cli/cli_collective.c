/* `collsim collective`: one collective on a two-tier network (seed 001).
 *
 *   untimed (default)  the pattern-generator: messages and bytes;
 *   --links            ... routed by linkUsage over the platform's own routes,
 *                      summarised per tier (L1, L2, T, intra);
 *   --timed            SimGrid actors execute the schedule; the simulated time
 *                      is printed beside the cost model of Tables 1-2, and the
 *                      messages the actors sent are checked against the
 *                      pattern-generator's, node pair by node pair.
 * Bad input: one message naming the problem, exit status 2, nothing written. */
#include "sim/cli/cli_collective.h"
#include "patterns/linkusage.h"
#include "patterns/pattern.h"
#include "sim/cli/cli_tree.h"
#include "sim/engine/sched_interp.h"
#include "sim/drivers/cost_model.h"
#include "sim/contracts/progress.h"
#include "sim/checks/replay.h"
#include "sim/engine/sg_routes.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct coll_opts {
  char *net, *coll, *algo, *block, *bytes, *format, *per_link, *pairs, *out, *model, *keep_platform, *batch, *script;
  double gamma, o_send_us, o_recv_us;
  gboolean list, links, timed, verify, quiet, no_header;
} coll_opts;

/* Everything a run found, for the three output formats. */
typedef struct coll_result {
  char *net;
  const cs_coll_algo *algo;
  cs_sched_params prm;
  uint64_t size;
  cs_pattern_totals pattern;
  cs_linkusage *lu;      /* with --links */
  cs_routes *routes;
  cs_tier_summary *tiers;
  size_t ntiers;
  int verified;          /* -1 not run */
  gboolean timed;
  cs_coll_timed t;
  double cost_s, beta, gamma;
  const char *model;
} coll_result;

typedef struct coll_item {
  const cs_coll_algo *algo;
  uint64_t size;
} coll_item;

/* ---- sizes ---- */

/* "64KiB", "1GiB", "1MB" (10^6), "4096".  Returns FALSE on anything else. */
static gboolean parse_size(const char *s, uint64_t *out)
{
  static const struct { const char *suffix; uint64_t mult; } units[] = {
    {"", 1}, {"B", 1}, {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30}, {"TiB", 1ull << 40},
    {"kB", 1000}, {"KB", 1000}, {"MB", 1000000}, {"GB", 1000000000}, {"TB", 1000000000000ull},
  };
  if (!s || !g_ascii_isdigit(*s))
    return FALSE;
  char *end = NULL;
  errno = 0;
  guint64 v = g_ascii_strtoull(s, &end, 10);
  if (errno)
    return FALSE;
  for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
    if (strcmp(end, units[i].suffix) == 0) {
      if (v > UINT64_MAX / units[i].mult)
        return FALSE;
      *out = v * units[i].mult;
      return TRUE;
    }
  return FALSE;
}

/* Human form in IEC units (1 MiB = 2^20 bytes), 3 significant digits. */
static void human_bytes(char *buf, size_t size, uint64_t b)
{
  static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = (double)b;
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    u++;
  }
  if (u == 0)
    snprintf(buf, size, "%" PRIu64 " B", b);
  else
    snprintf(buf, size, "%.*f %s", v >= 100 ? 0 : v >= 10 ? 1 : 2, v, names[u]);
}

/* ---- options ---- */

static GOptionContext *coll_option_context(coll_opts *o)
{
  GOptionEntry entries[] = {
    {"list", 0, 0, G_OPTION_ARG_NONE, &o->list, "list collectives and algorithms and exit", NULL},
    {"net", 0, 0, G_OPTION_ARG_STRING, &o->net, "percs:SN,NPS,CPN or dragonfly:G,A,H,P[,C] [/l1=..,l2=..,lat=..]", "SPEC"},
    {"coll", 'c', 0, G_OPTION_ARG_STRING, &o->coll, "scatter, gather, bcast, allgather, reduce-scatter, reduce", "NAME"},
    {"algo", 'a', 0, G_OPTION_ARG_STRING, &o->algo, "algorithm (see --list)", "NAME"},
    {"block", 0, 0, G_OPTION_ARG_STRING, &o->block, "data per rank (scatter, gather, allgather, reduce-scatter), e.g. 64KiB", "SIZE"},
    {"bytes", 0, 0, G_OPTION_ARG_STRING, &o->bytes, "whole buffer (bcast, reduce), e.g. 1GiB", "SIZE"},
    {"batch", 0, 0, G_OPTION_ARG_FILENAME, &o->batch, "untimed runs on one platform, one \"COLL ALGO SIZE\" per line", "FILE"},
    {"script", 0, 0, G_OPTION_ARG_FILENAME, &o->script, "--algo script: the tree script (YAML, seed 002)", "FILE"},
    {"links", 0, 0, G_OPTION_ARG_NONE, &o->links, "route the traffic: links used, min/max/total bytes per tier", NULL},
    {"per-link", 0, 0, G_OPTION_ARG_FILENAME, &o->per_link, "also write every link's bytes and messages to a CSV (implies --links)", "FILE"},
    {"pairs", 0, 0, G_OPTION_ARG_FILENAME, &o->pairs, "write the node-to-node pattern (src,dst,messages,bytes) to a CSV", "FILE"},
    {"timed", 0, 0, G_OPTION_ARG_NONE, &o->timed, "run the schedule on SimGrid actors: simulated time and cost model", NULL},
    {"verify", 0, 0, G_OPTION_ARG_NONE, &o->verify, "replay the schedule and check what every rank ends with (small p)", NULL},
    {"gamma", 0, 0, G_OPTION_ARG_DOUBLE, &o->gamma, "seconds per byte reduced (default 1e-10)", "S"},
    {"o-send", 0, 0, G_OPTION_ARG_DOUBLE, &o->o_send_us, "--timed: software overhead per message sent, us (default 0)", "US"},
    {"o-recv", 0, 0, G_OPTION_ARG_DOUBLE, &o->o_recv_us, "--timed: software overhead per message received, us (default 0)", "US"},
    {"model", 0, 0, G_OPTION_ARG_STRING, &o->model, "--timed: SimGrid network model (default LV08)", "MODEL"},
    {"keep-platform", 0, 0, G_OPTION_ARG_FILENAME, &o->keep_platform, "also write the generated platform XML here", "FILE"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &o->format, "table (default), csv or json", "FMT"},
    {"no-header", 0, 0, G_OPTION_ARG_NONE, &o->no_header, "csv without the header line", NULL},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "write the result to FILE (atomically) instead of stdout", "FILE"},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "no progress on stderr", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
  };
  GOptionContext *ctx = g_option_context_new("- one collective on a two-tier direct network (PERCS, Dragonfly)");
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_summary(
      ctx, "Examples:\n"
           "  collsim collective --net percs:64,16,16 --coll scatter --algo binomial --block 64KiB --links\n"
           "  collsim collective --net percs:64,16,16 --coll bcast --algo two-tier --bytes 1GiB --timed\n"
           "Sizes: plain bytes, KiB/MiB/GiB/TiB (powers of 2), kB/MB/GB/TB (powers of 10).\n"
           "Human-readable output uses IEC units: 1 MiB = 2^20 bytes.");
  return ctx;
}

static void coll_opts_free(coll_opts *o)
{
  g_free(o->net); g_free(o->coll); g_free(o->algo); g_free(o->block); g_free(o->bytes); g_free(o->format);
  g_free(o->per_link); g_free(o->pairs); g_free(o->out); g_free(o->model); g_free(o->keep_platform);
  g_free(o->batch);
  g_free(o->script);
}

static void list_algorithms(void)
{
  printf("%-15s %-20s %s\n", "collective", "algorithm", "description");
  for (int c = 0; c < CS_NCOLLS; c++)
    for (size_t i = 0; i < cs_coll_algo_count(); i++) {
      const cs_coll_algo *a = cs_coll_algo_at(i);
      if (a->coll == (cs_coll)c)
        printf("%-15s %-20s %s\n", cs_coll_name(a->coll), a->name, a->summary);
    }
  printf("\n%s and %s take --block (data per rank); %s and %s take --bytes (whole buffer).\n",
         "scatter, gather, allgather", "reduce-scatter", "bcast", "reduce");
}

static char *algo_names(cs_coll c)
{
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < cs_coll_algo_count(); i++)
    if (cs_coll_algo_at(i)->coll == c)
      g_string_append_printf(s, "%s%s", s->len ? ", " : "", cs_coll_algo_at(i)->name);
  return g_string_free(s, FALSE);
}

static int validate_net(const coll_opts *o, cs_net *net)
{
  GError *e = NULL;
  if (!o->net)
    return cs_usage_error("collective", "--net is required, e.g. --net percs:64,16,16");
  if (!cs_net_parse(o->net, net, &e)) {
    int rc = cs_usage_error("collective", "bad --net '%s': %s", o->net, e->message);
    g_error_free(e);
    return rc;
  }
  return 0;
}

static int validate_names(const coll_opts *o, const cs_coll_algo **algo)
{
  cs_coll c;
  if (!o->coll)
    return cs_usage_error("collective", "--coll is required (scatter, gather, bcast, allgather, reduce-scatter, reduce)");
  if (!cs_coll_from_name(o->coll, &c))
    return cs_usage_error("collective", "unknown collective '%s' (scatter, gather, bcast, allgather, "
                                        "reduce-scatter, reduce)", o->coll);
  if (!o->algo)
    return cs_usage_error("collective", "--algo is required (see collsim collective --list)");
  *algo = cs_coll_algo_find(c, o->algo);
  if (!*algo) {
    char *names = algo_names(c);
    int rc = cs_usage_error("collective", "unknown algorithm '%s' for %s (known: %s)", o->algo, o->coll, names);
    g_free(names);
    return rc;
  }
  return 0;
}

static int validate_size(const coll_opts *o, cs_coll c, uint64_t *size)
{
  gboolean per_rank = cs_coll_per_rank(c);
  const char *want = per_rank ? "--block" : "--bytes", *other = per_rank ? "--bytes" : "--block";
  const char *given = per_rank ? o->block : o->bytes;
  if ((per_rank ? o->bytes : o->block) != NULL)
    return cs_usage_error("collective", "%s takes %s (%s), not %s", cs_coll_name(c), want,
                          per_rank ? "data per rank" : "the whole buffer", other);
  if (!given)
    return cs_usage_error("collective", "%s needs %s SIZE, e.g. %s %s", cs_coll_name(c), want, want,
                          per_rank ? "64KiB" : "1GiB");
  if (!parse_size(given, size) || *size == 0)
    return cs_usage_error("collective", "bad %s '%s': a positive size in bytes, KiB, MiB, GiB (or kB, MB, GB)",
                          want, given);
  return 0;
}

static int validate_rest(const coll_opts *o)
{
  if (strcmp(o->format, "table") && strcmp(o->format, "csv") && strcmp(o->format, "json"))
    return cs_usage_error("collective", "unknown --format '%s' (table, csv or json)", o->format);
  if (!(o->gamma >= 0))
    return cs_usage_error("collective", "--gamma must be >= 0 (got %g)", o->gamma);
  if (!(o->o_send_us >= 0) || !(o->o_recv_us >= 0))
    return cs_usage_error("collective", "--o-send and --o-recv must be >= 0");
  if (o->model && strcmp(o->model, "LV08") && strcmp(o->model, "CM02") && strcmp(o->model, "SMPI"))
    return cs_usage_error("collective", "unknown --model '%s' (LV08, CM02 or SMPI)", o->model);
  if (o->model && !o->timed)
    return cs_usage_error("collective", "--model only applies with --timed");
  return 0;
}

/* ---- platform and routes ---- */

static char *write_platform(const coll_opts *o, const cs_net *net, GError **err)
{
  char *path = NULL;
  int fd = g_file_open_tmp("collsim-net-XXXXXX.xml", &path, err);
  if (fd < 0)
    return NULL;
  close(fd);
  if (!cs_net_write_xml(net, path, err) || (o->keep_platform && !cs_net_write_xml(net, o->keep_platform, err))) {
    unlink(path);
    g_free(path);
    return NULL;
  }
  return path;
}

static void engine_config(const coll_opts *o, const char *platform, cs_engine_config *ec)
{
  cs_engine_config_defaults(ec);
  ec->platform_file = platform;
  ec->o_send = o->o_send_us * 1e-6;
  ec->o_recv = o->o_recv_us * 1e-6;
  if (o->model)
    ec->model = o->model;
  ec->quiet = o->quiet;
  ec->fifo_channels = 1; /* MPI order per pair: a pipeline (ring) is not a fair share */
  ec->recv_window = 8;   /* receives matched in order of arrival, as MPI does */
}

static int route_of(void *ctx, int64_t a, int64_t b, const int32_t **links)
{
  return cs_routes_get(ctx, a, b, links);
}

/* ---- pattern, optionally recorded ---- */

typedef struct pair_rec {
  int64_t src, dst;
  uint64_t bytes, messages;
} pair_rec;

typedef struct pair_sinks {
  cs_linkusage *lu;
  FILE *pairs_csv;
  GArray *record; /* pair_rec, to compare the timed run with */
} pair_sinks;

static void to_sinks(void *user, int64_t src, int64_t dst, uint64_t bytes, uint64_t messages)
{
  pair_sinks *s = user;
  if (s->lu)
    cs_linkusage_add(s->lu, src, dst, bytes, messages);
  if (s->pairs_csv)
    fprintf(s->pairs_csv, "%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 "\n", src, dst, messages, bytes);
  if (s->record) {
    pair_rec r = {src, dst, bytes, messages};
    g_array_append_val(s->record, r);
  }
}

/* One progress item per CS_PATTERN_CHUNK ranks. */
static void pattern_progress(void *user, int64_t done)
{
  (void)done;
  cs_progress_done(user, 1, FALSE);
}

static void run_pattern(const coll_opts *o, coll_result *R, pair_sinks *sinks)
{
  size_t chunks = (size_t)((R->prm.p + CS_PATTERN_CHUNK - 1) / CS_PATTERN_CHUNK);
  /* Below a quarter million ranks the pattern takes well under a second. */
  gboolean quiet = o->quiet || R->prm.p < (1 << 18);
  cs_progress *pg = cs_progress_new(stderr, "pattern (chunks of 4096 ranks)", chunks, (double)chunks, quiet);
  cs_pattern_generate(R->algo, &R->prm, to_sinks, sinks, &R->pattern, pattern_progress, pg);
  cs_progress_finish(pg);
}

static gboolean same_pairs(GArray *a, GArray *b)
{
  if (a->len != b->len)
    return FALSE;
  return memcmp(a->data, b->data, a->len * sizeof(pair_rec)) == 0;
}

/* ---- output ---- */

static void write_json(FILE *f, const coll_result *R)
{
  fprintf(f, "{\"net\": \"%s\", \"coll\": \"%s\", \"algo\": \"%s\", \"p\": %" PRId64 ", \"sn\": %" PRId64
             ", \"nps\": %" PRId64 ", \"cpn\": %" PRId64 ", \"size\": %" PRIu64 ", \"size_is\": \"%s\", "
             "\"messages\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"max_message_bytes\": %" PRIu64,
          R->net, cs_coll_name(R->algo->coll), R->algo->name, R->prm.p, R->prm.net->sn, R->prm.net->nps,
          R->prm.net->cpn, R->size, cs_coll_per_rank(R->algo->coll) ? "block" : "bytes", R->pattern.messages,
          R->pattern.bytes, R->pattern.max_message_bytes);
  if (R->verified >= 0)
    fprintf(f, ", \"verified\": %s", R->verified ? "true" : "false");
  if (R->lu) {
    fputs(", \"human_units\": \"IEC, 1 MiB = 2^20 bytes\", \"tiers\": {", f);
    for (size_t i = 0; i < R->ntiers; i++) {
      const cs_tier_summary *t = &R->tiers[i];
      char lo[32], hi[32], tot[32];
      human_bytes(lo, sizeof lo, t->min_bytes);
      human_bytes(hi, sizeof hi, t->max_bytes);
      human_bytes(tot, sizeof tot, t->total_bytes);
      fprintf(f, "%s\"%s\": {\"links\": %" PRId64 ", \"links_used\": %" PRId64 ", \"min_bytes\": %" PRIu64
                 ", \"max_bytes\": %" PRIu64 ", \"total_bytes\": %" PRIu64 ", \"messages\": %" PRIu64
                 ", \"min_human\": \"%s\", \"max_human\": \"%s\", \"total_human\": \"%s\"}",
              i ? ", " : "", t->name, t->links, t->links_used, t->min_bytes, t->max_bytes,
              t->total_bytes, t->messages, lo, hi, tot);
    }
    cs_linkusage_totals tot = cs_linkusage_get_totals(R->lu);
    fprintf(f, "}, \"network_bytes\": %" PRIu64 ", \"byte_hops\": %" PRIu64 ", \"node_pairs\": %" PRIu64,
            tot.network_bytes, tot.byte_hops, tot.node_pairs);
  }
  if (R->timed)
    fprintf(f, ", \"sim_time_s\": %.9g, \"cost_model_s\": %.9g, \"cost_formula\": \"%s\", \"beta_s_per_byte\": %.6g"
               ", \"gamma_s_per_byte\": %.6g, \"model\": \"%s\", \"timed_matches_pattern\": true",
            R->t.sim_time_s, R->cost_s, cs_cost_formula(R->algo->coll, cs_cost_family_of(R->algo)), R->beta,
            R->gamma, R->model);
  fputs("}\n", f);
}

static void write_table(FILE *f, const coll_result *R)
{
  char b[32];
  fprintf(f, "%s %s on %s: p = %" PRId64 ", %s %" PRIu64 " bytes\n", cs_coll_name(R->algo->coll), R->algo->name,
          R->net, R->prm.p, cs_coll_per_rank(R->algo->coll) ? "block" : "buffer", R->size);
  human_bytes(b, sizeof b, R->pattern.bytes);
  fprintf(f, "messages %" PRIu64 ", bytes %" PRIu64 " (%s)\n", R->pattern.messages, R->pattern.bytes, b);
  if (R->verified >= 0)
    fprintf(f, "semantic check: %s\n", R->verified ? "every rank ends with what it must" : "FAILED");
  if (R->lu) {
    fprintf(f, "%-6s %8s %8s %14s %14s %16s   (MiB = 2^20 bytes)\n", "tier", "links", "used", "min bytes",
            "max bytes", "total bytes");
    for (size_t i = 0; i < R->ntiers; i++) {
      const cs_tier_summary *t = &R->tiers[i];
      char lo[32], hi[32];
      human_bytes(lo, sizeof lo, t->min_bytes);
      human_bytes(hi, sizeof hi, t->max_bytes);
      fprintf(f, "%-6s %8" PRId64 " %8" PRId64 " %14" PRIu64 " %14" PRIu64 " %16" PRIu64 "   min %s, max %s\n",
              t->name, t->links, t->links_used, t->min_bytes, t->max_bytes, t->total_bytes, lo, hi);
    }
  }
  if (R->timed)
    fprintf(f, "simulated time %.6g s (%s); cost model %.6g s = %s, beta %.3g s/B, gamma %.3g s/B\n",
            R->t.sim_time_s, R->model, R->cost_s, cs_cost_formula(R->algo->coll, cs_cost_family_of(R->algo)),
            R->beta, R->gamma);
}

static const char *CSV_HEADER = "net,coll,algo,p,size,messages,bytes,tier,links,links_used,min_bytes,max_bytes,"
                                "total_bytes,sim_time_s,cost_model_s";

static void write_csv(FILE *f, const coll_result *R, gboolean header)
{
  if (header)
    fprintf(f, "%s\n", CSV_HEADER);
  char timed[80] = ",";
  if (R->timed)
    snprintf(timed, sizeof timed, "%.9g,%.9g", R->t.sim_time_s, R->cost_s);
  size_t rows = R->lu ? R->ntiers : 1;
  for (size_t i = 0; i < rows; i++) {
    fprintf(f, "\"%s\",%s,%s,%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", R->net, cs_coll_name(R->algo->coll),
            R->algo->name, R->prm.p, R->size, R->pattern.messages, R->pattern.bytes);
    if (R->lu) {
      const cs_tier_summary *t = &R->tiers[i];
      fprintf(f, "%s,%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", t->name, t->links,
              t->links_used, t->min_bytes, t->max_bytes, t->total_bytes);
    } else {
      fputs(",,,,,,", f);
    }
    fprintf(f, "%s\n", timed);
  }
}

static int emit(const coll_opts *o, const char *buf, size_t len)
{
  if (!o->out) {
    fwrite(buf, 1, len, stdout);
    return 0;
  }
  char *msg = NULL;
  if (cs_write_file_atomic(o->out, buf, len, &msg)) {
    int rc = cs_usage_error("collective", "cannot write %s: %s", o->out, msg);
    g_free(msg);
    return rc;
  }
  return 0;
}

static int write_per_link(const char *path, const coll_result *R)
{
  GString *s = g_string_new("link,name,tier,bytes,messages\n");
  for (int64_t l = 0; l < cs_routes_nlinks(R->routes); l++)
    g_string_append_printf(s, "%" PRId64 ",%s,%s,%" PRIu64 ",%" PRIu64 "\n", l, cs_routes_link_name(R->routes, l),
                           cs_routes_link_tier(R->routes, l), cs_linkusage_link_bytes(R->lu, l),
                           cs_linkusage_link_messages(R->lu, l));
  char *msg = NULL;
  int rc = 0;
  if (cs_write_file_atomic(path, s->str, s->len, &msg)) {
    rc = cs_usage_error("collective", "cannot write %s: %s", path, msg);
    g_free(msg);
  }
  g_string_free(s, TRUE);
  return rc;
}

/* ---- the run ---- */

static int fail_with(GError *e)
{
  int rc = e && e->domain == CS_INTERNAL_ERROR ? 1 : 2;
  fprintf(stderr, "collsim collective: error: %s\n", e ? e->message : "unknown failure");
  g_clear_error(&e);
  return rc;
}

static double beta_of(const cs_net *net)
{
  double bw = net->l1_bw < net->l2_bw ? net->l1_bw : net->l2_bw;
  return 1.0 / bw;
}

static void summarise_links(coll_result *R)
{
  int64_t n = cs_routes_nlinks(R->routes);
  const char **tier = g_new(const char *, n > 0 ? n : 1);
  for (int64_t l = 0; l < n; l++)
    tier[l] = cs_routes_link_tier(R->routes, l);
  R->ntiers = cs_linkusage_tiers(R->lu, tier, &R->tiers);
  g_free(tier);
  /* Loopback links carry nothing here (intra-node traffic is the "intra"
   * tier), nor does SimGrid's internal "__loopback__" (tier "?"). */
  size_t kept = 0;
  for (size_t i = 0; i < R->ntiers; i++)
    if (strcmp(R->tiers[i].name, "loopback") != 0 && strcmp(R->tiers[i].name, "?") != 0)
      R->tiers[kept++] = R->tiers[i];
  R->ntiers = kept;
}

/* SimGrid's cost is per message (about 40 us each on the reference machine):
 * say so before a run of hours starts. */
static void warn_if_long(const coll_opts *o, const coll_result *R)
{
  double hours = (double)R->pattern.messages * 40e-6 / 3600;
  if (o->quiet || hours < 0.5)
    return;
  fprintf(stderr, "collsim collective: note: a timed run of %" PRIu64 " messages takes about %.0f hours here "
                  "(~40 us per message); the untimed --links run takes seconds\n", R->pattern.messages, hours);
}

static int run_timed(const coll_opts *o, coll_result *R, cs_engine_config *ec, GArray *untimed)
{
  GError *e = NULL;
  warn_if_long(o, R);
  pair_sinks timed_sinks = {.record = g_array_new(FALSE, FALSE, sizeof(pair_rec))};
  gboolean ok = cs_coll_run_timed(R->algo, &R->prm, ec, o->gamma, to_sinks, &timed_sinks, &R->t, &e);
  int rc = 0;
  if (!ok) {
    rc = fail_with(e);
  } else if (R->t.finished != R->prm.p || R->t.size_mismatches || !same_pairs(timed_sinks.record, untimed) ||
             R->t.messages != R->pattern.messages || R->t.bytes != R->pattern.bytes) {
    fprintf(stderr, "collsim collective: internal error: the timed run (%d of %lld ranks finished, %" PRIu64
                    " messages, %" PRIu64 " bytes) does not match the schedule (%" PRIu64 " messages, %" PRIu64
                    " bytes)\n", R->t.finished, (long long)R->prm.p, R->t.messages, R->t.bytes,
            R->pattern.messages, R->pattern.bytes);
    rc = 1;
  }
  g_array_free(timed_sinks.record, TRUE);
  R->timed = TRUE;
  R->beta = beta_of(R->prm.net);
  R->gamma = o->gamma;
  R->model = ec->model;
  R->cost_s = cs_cost_model(R->algo->coll, cs_cost_family_of(R->algo), R->prm.net, (double)R->prm.bytes, R->beta,
                            o->gamma);
  return rc;
}

static int verify(coll_result *R)
{
  GError *e = NULL;
  double need = cs_replay_state_bytes(&R->prm);
  if (need > 4.0 * (1 << 30))
    return cs_usage_error("collective", "--verify would track %.1f GiB of state (p x units = %lld x %lld); "
                          "check the schedule on a smaller machine", need / (1 << 30), (long long)R->prm.p,
                          (long long)R->prm.nunits);
  R->verified = cs_replay(R->algo, &R->prm, NULL, &e);
  if (!R->verified) {
    fprintf(stderr, "collsim collective: semantic check failed: %s\n", e->message);
    g_error_free(e);
    return 1;
  }
  return 0;
}

static int open_pairs_csv(const coll_opts *o, pair_sinks *s, char **tmp)
{
  if (!o->pairs)
    return 0;
  *tmp = g_strdup_printf("%s.tmp-%d", o->pairs, (int)getpid());
  s->pairs_csv = fopen(*tmp, "w");
  if (!s->pairs_csv)
    return cs_usage_error("collective", "cannot write %s: %s", o->pairs, g_strerror(errno));
  fputs("src_node,dst_node,messages,bytes\n", s->pairs_csv);
  return 0;
}

static int close_pairs_csv(const coll_opts *o, pair_sinks *s, char *tmp, int rc)
{
  if (!s->pairs_csv)
    return rc;
  if (fclose(s->pairs_csv) != 0 && rc == 0)
    rc = cs_usage_error("collective", "cannot write %s", o->pairs);
  if (rc == 0 && rename(tmp, o->pairs) != 0)
    rc = cs_usage_error("collective", "cannot write %s: %s", o->pairs, g_strerror(errno));
  if (rc != 0)
    unlink(tmp);
  g_free(tmp);
  return rc;
}

/* What the runs of one invocation share: the platform, loaded once. */
typedef struct session {
  char *platform;
  cs_engine_config ec;
  cs_routes *routes;
} session;

static int session_open(const coll_opts *o, const cs_net *net, session *S)
{
  GError *e = NULL;
  gboolean links = o->links || o->per_link;
  if (!(links || o->timed || o->keep_platform))
    return 0;
  S->platform = write_platform(o, net, &e);
  if (!S->platform)
    return fail_with(e);
  engine_config(o, S->platform, &S->ec);
  if (!links)
    return 0;
  S->routes = cs_routes_open(&S->ec, net->p / net->cpn, &e);
  return S->routes ? 0 : fail_with(e);
}

static void session_close(session *S)
{
  if (S->routes)
    cs_routes_close(S->routes);
  if (S->platform) {
    unlink(S->platform);
    g_free(S->platform);
  }
}

static void write_result(const coll_opts *o, const coll_result *R, FILE *mem, gboolean first)
{
  if (!strcmp(o->format, "json"))
    write_json(mem, R);
  else if (!strcmp(o->format, "csv"))
    write_csv(mem, R, first && !o->no_header);
  else {
    if (!first)
      fputc('\n', mem);
    write_table(mem, R);
  }
}

/* One collective: pattern, links, timed run; its result appended to mem. */
static int run_one(const coll_opts *o, const cs_net *net, session *S, const coll_item *it, FILE *mem,
                   gboolean first)
{
  coll_result R = {.algo = it->algo, .size = it->size, .verified = -1, .routes = S->routes};
  GError *e = NULL;
  if (!cs_sched_setup_arg(&R.prm, it->algo, net, it->size, o->script, &e)) {
    int rc = cs_usage_error("collective", "%s", e->message);
    g_error_free(e);
    return rc;
  }
  R.net = cs_net_describe(net);
  int rc = o->verify ? verify(&R) : 0;
  if (S->routes)
    R.lu = cs_linkusage_new(cs_routes_nlinks(S->routes), net->p / net->cpn, route_of, S->routes);
  char *pairs_tmp = NULL;
  pair_sinks sinks = {.lu = R.lu, .record = o->timed ? g_array_new(FALSE, FALSE, sizeof(pair_rec)) : NULL};
  if (rc == 0)
    rc = open_pairs_csv(o, &sinks, &pairs_tmp);
  if (rc == 0)
    run_pattern(o, &R, &sinks);
  rc = close_pairs_csv(o, &sinks, pairs_tmp, rc);
  if (rc == 0 && o->timed)
    rc = run_timed(o, &R, &S->ec, sinks.record);
  if (rc == 0 && R.lu)
    summarise_links(&R);
  if (rc == 0 && o->per_link)
    rc = write_per_link(o->per_link, &R);
  if (rc == 0)
    write_result(o, &R, mem, first);
  if (sinks.record)
    g_array_free(sinks.record, TRUE);
  cs_linkusage_free(R.lu);
  g_free(R.tiers);
  g_free(R.net);
  return rc;
}

static int run_collectives(const coll_opts *o, const cs_net *net, const coll_item *items, size_t count)
{
  session S = {0};
  int rc = session_open(o, net, &S);
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  for (size_t i = 0; rc == 0 && i < count; i++)
    rc = run_one(o, net, &S, &items[i], mem, i == 0);
  fclose(mem);
  if (rc == 0)
    rc = emit(o, buf, len);
  free(buf);
  session_close(&S);
  return rc;
}

/* --batch FILE: one run per line, "COLL ALGO SIZE"; '#' starts a comment. */
static int read_batch(const char *path, GArray *items)
{
  gchar *text = NULL;
  GError *e = NULL;
  if (!g_file_get_contents(path, &text, NULL, &e)) {
    int rc = cs_usage_error("collective", "cannot read --batch file: %s", e->message);
    g_error_free(e);
    return rc;
  }
  char **lines = g_strsplit(text, "\n", -1);
  int rc = 0;
  for (int i = 0; rc == 0 && lines[i]; i++) {
    char *hash = strchr(lines[i], '#');
    if (hash)
      *hash = 0;
    char **all = g_strsplit_set(g_strstrip(lines[i]), " \t", -1), *f[4];
    int n = 0;
    for (int j = 0; all[j]; j++)
      if (*all[j] && n++ < 4)
        f[n - 1] = all[j];
    if (n == 0) {
      g_strfreev(all);
      continue;
    }
    coll_item it = {0};
    cs_coll c;
    if (n != 3)
      rc = cs_usage_error("collective", "%s line %d: expected COLL ALGO SIZE", path, i + 1);
    else if (!cs_coll_from_name(f[0], &c))
      rc = cs_usage_error("collective", "%s line %d: unknown collective '%s'", path, i + 1, f[0]);
    else if (!(it.algo = cs_coll_algo_find(c, f[1])))
      rc = cs_usage_error("collective", "%s line %d: unknown algorithm '%s' for %s", path, i + 1, f[1], f[0]);
    else if (!parse_size(f[2], &it.size) || it.size == 0)
      rc = cs_usage_error("collective", "%s line %d: bad size '%s'", path, i + 1, f[2]);
    else
      g_array_append_val(items, it);
    g_strfreev(all);
  }
  if (rc == 0 && items->len == 0)
    rc = cs_usage_error("collective", "--batch file %s names no run", path);
  g_strfreev(lines);
  g_free(text);
  return rc;
}

static int validate_batch(const coll_opts *o)
{
  if (o->coll || o->algo || o->block || o->bytes)
    return cs_usage_error("collective", "--batch replaces --coll, --algo, --block and --bytes");
  if (o->timed || o->per_link || o->pairs)
    return cs_usage_error("collective", "--batch runs are untimed, without --per-link or --pairs (one file each)");
  return 0;
}

static int run_batch(const coll_opts *o, const cs_net *net)
{
  GArray *items = g_array_new(FALSE, FALSE, sizeof(coll_item));
  int rc = validate_batch(o);
  if (rc == 0)
    rc = read_batch(o->batch, items);
  if (rc == 0)
    rc = run_collectives(o, net, (coll_item *)items->data, items->len);
  g_array_free(items, TRUE);
  return rc;
}

int cs_collective_main(int argc, char **argv)
{
  coll_opts o = {.gamma = 1e-10};
  GOptionContext *ctx = coll_option_context(&o);
  GError *e = NULL;
  int rc;
  if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
    rc = cs_usage_error("collective", "%s", e->message);
    g_error_free(e);
  } else if (argc > 1) {
    rc = cs_usage_error("collective", "unexpected argument '%s'", argv[1]);
  } else if (o.list) {
    list_algorithms();
    rc = 0;
  } else {
    if (!o.format)
      o.format = g_strdup("table");
    cs_net net;
    rc = validate_net(&o, &net);
    if (rc == 0)
      rc = validate_rest(&o);
    if (rc == 0 && o.batch) {
      rc = run_batch(&o, &net);
    } else if (rc == 0) {
      coll_item it = {0};
      rc = validate_names(&o, &it.algo);
      if (rc == 0)
        rc = validate_size(&o, it.algo->coll, &it.size);
      if (rc == 0)
        rc = run_collectives(&o, &net, &it, 1);
    }
  }
  g_option_context_free(ctx);
  coll_opts_free(&o);
  return rc;
}
