/* The collective pipeline (see collective.h). */
#include "sim/drivers/collective.h"
#include "patterns/linkusage.h"
#include "patterns/pattern.h"
#include "sim/checks/replay.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/progress.h"
#include "sim/contracts/tempdir.h"
#include "sim/contracts/units.h"
#include "sim/drivers/cost_params.h"
#include "sim/drivers/trace.h"
#include "sim/engine/sg_routes.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

const char *const cs_coll_csv_columns[] = {"net", "coll", "algo", "p", "size", "messages", "bytes", "tier",
                                           "links", "links_used", "min_bytes", "max_bytes", "total_bytes",
                                           "sim_time_s", "cost_model_s", "cost_formula", NULL};

/* --verify refuses shapes whose replay state would exceed this. */
#define MAX_REPLAY_BYTES (4.0 * (1 << 30))
/* SimGrid's cost per message on the reference machine (a timed run of more
 * messages than this many hours' worth gets a note first). */
#define SECONDS_PER_SIMULATED_MESSAGE 40e-6

struct cs_coll_session {
  const cs_platform *platform;
  cs_coll_options opt;
  cs_two_tier tt;
  char *xml;             /* the platform file runs load */
  bool xml_is_temp;
  cs_engine_config ec;
  int *host_of;
  cs_routes *routes; /* --links (traffic per link) and --timed (the cost parameters) */
};

cs_coll_session *cs_coll_session_open(const cs_platform *p, const cs_coll_options *o, const cs_engine_config *ec,
                                      GError **err)
{
  cs_coll_session *s = g_new0(cs_coll_session, 1);
  s->platform = p;
  s->opt = *o;
  cs_platform_two_tier(p, &s->tt);
  s->ec = *ec;
  bool need_xml = o->links || o->timed;
  if (!need_xml)
    return s;
  if (!cs_platform_xml_for_run(p, &s->xml, &s->xml_is_temp, err))
    goto fail;
  s->ec.platform_file = s->xml;
  s->ec.cores = p->cores;
  s->ec.fifo_channels = 1; /* MPI order per pair: a pipeline (ring) is not a fair share */
  s->ec.recv_window = 8;   /* receives matched in order of arrival, as MPI does */
  if (p->mapping != CS_MAP_IN_ORDER) {
    s->host_of = cs_platform_host_map(p, s->tt.p);
    s->ec.host_of = s->host_of;
  }
  cs_link_namer namer = cs_platform_link_namer(p); /* the family names the links SimGrid made itself */
  s->routes = cs_routes_open(&s->ec, cs_tt_nodes(&s->tt), &namer, err);
  if (!s->routes)
    goto fail;
  return s;
fail:
  cs_coll_session_close(s);
  return NULL;
}

void cs_coll_session_close(cs_coll_session *s)
{
  if (!s)
    return;
  if (s->routes)
    cs_routes_close(s->routes);
  if (s->xml_is_temp)
    cs_tempfile_remove(s->xml);
  g_free(s->xml);
  g_free(s->host_of);
  g_free(s);
}

/* ---- one run ---- */

typedef struct pair_rec {
  int64_t src, dst;
  uint64_t bytes, messages;
} pair_rec;

typedef struct run_state {
  cs_coll_session *S;
  const cs_coll_item *it;
  cs_sched_params prm;
  cs_pattern_totals pattern;
  int verified; /* -1 not run */
  cs_linkusage *lu;        /* the pattern's traffic, routed */
  cs_linkusage *delivered; /* timed runs: the traffic of the messages delivered */
  bool *listed;            /* links reported, in the summary and the CSV alike */
  cs_tier_summary *tiers;
  size_t ntiers;
  GArray *untimed, *timed_pairs; /* pair_rec */
  GString *pairs_csv;
  cs_coll_timed t;
  bool timed;
  cs_cost_params cost;
  double cost_s, beta;
} run_state;

static void to_sinks(void *user, int64_t src, int64_t dst, uint64_t bytes, uint64_t messages)
{
  run_state *R = user;
  if (R->lu)
    cs_linkusage_add(R->lu, src, dst, bytes, messages);
  if (R->pairs_csv)
    g_string_append_printf(R->pairs_csv, "%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 "\n", src, dst, messages,
                           bytes);
  if (R->untimed) {
    pair_rec r = {src, dst, bytes, messages};
    g_array_append_val(R->untimed, r);
  }
}

static void to_timed(void *user, int64_t src, int64_t dst, uint64_t bytes, uint64_t messages)
{
  pair_rec r = {src, dst, bytes, messages};
  g_array_append_val((GArray *)user, r);
}

static int route_of(void *ctx, int64_t a, int64_t b, const int32_t **links) { return cs_routes_get(ctx, a, b, links); }

/* SimGrid's route, asked for every message delivered. */
static int route_direct(void *ctx, int64_t a, int64_t b, const int32_t **links)
{
  return cs_routes_get_direct(ctx, a, b, links);
}

static void pattern_progress(void *user, int64_t done)
{
  (void)done;
  cs_progress_done(user, 1, FALSE);
}

static void run_pattern(run_state *R)
{
  size_t chunks = (size_t)((R->prm.p + CS_PATTERN_CHUNK - 1) / CS_PATTERN_CHUNK);
  /* Below a quarter million ranks the pattern takes well under a second. */
  gboolean quiet = R->S->opt.quiet || R->prm.p < (1 << 18);
  cs_progress *pg = cs_progress_new(stderr, "pattern (chunks of 4096 ranks)", chunks, (double)chunks, quiet);
  cs_pattern_generate(R->it->algo, &R->prm, to_sinks, R, &R->pattern, pattern_progress, pg);
  cs_progress_finish(pg);
}

static bool verify(run_state *R, GError **err)
{
  double need = cs_replay_state_bytes(&R->prm);
  if (need > MAX_REPLAY_BYTES)
    return cs_input_error(err, "--verify would track %.1f GiB of state (p x units = %lld x %lld); check the schedule "
                       "on a smaller machine", need / (1 << 30), (long long)R->prm.p, (long long)R->prm.nunits);
  GError *e = NULL;
  R->verified = cs_replay(R->it->algo, &R->prm, NULL, &e);
  if (!R->verified) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "semantic check failed: %s", e->message);
    g_error_free(e);
  }
  return R->verified;
}

static bool same_pairs(GArray *a, GArray *b)
{
  return a->len == b->len && memcmp(a->data, b->data, a->len * sizeof(pair_rec)) == 0;
}

/* Every link carried, in the timed run, the bytes and messages the schedule
 * routes over it. */
static bool same_links(const run_state *R, GError **err)
{
  if (!R->delivered)
    return true;
  cs_routes *routes = R->S->routes;
  for (int64_t l = 0; l < cs_routes_nlinks(routes); l++) {
    uint64_t b = cs_linkusage_link_bytes(R->delivered, l), m = cs_linkusage_link_messages(R->delivered, l);
    uint64_t want_b = cs_linkusage_link_bytes(R->lu, l), want_m = cs_linkusage_link_messages(R->lu, l);
    if (b != want_b || m != want_m) {
      g_set_error(err, CS_INTERNAL_ERROR, 1, "link %s carried %" PRIu64 " bytes in %" PRIu64 " messages in the timed "
                  "run, but the schedule routes %" PRIu64 " bytes in %" PRIu64 " messages over it",
                  cs_routes_link_name(routes, l), b, m, want_b, want_m);
      return false;
    }
  }
  return true;
}

static void warn_if_long(const run_state *R)
{
  double hours = (double)R->pattern.messages * SECONDS_PER_SIMULATED_MESSAGE / 3600;
  if (R->S->opt.quiet || hours < 0.5)
    return;
  fprintf(stderr, "collsim collective: note: a timed run of %" PRIu64 " messages takes about %.0f hours here "
                  "(~40 us per message); the untimed --links run takes seconds\n", R->pattern.messages, hours);
}

static bool run_timed(run_state *R, GError **err)
{
  warn_if_long(R);
  R->timed_pairs = g_array_new(FALSE, FALSE, sizeof(pair_rec));
  R->S->ec.progress_messages = (double)R->pattern.messages; /* the untimed pattern's: progress against it */
  if (!cs_coll_run_timed(R->it->algo, &R->prm, &R->S->ec, R->S->opt.gamma, to_timed, R->timed_pairs, R->delivered,
                         &R->t, err))
    return false;
  R->timed = true;
  R->beta = 1.0 / R->S->platform->link_bw;
  double mean = R->pattern.messages ? (double)R->pattern.bytes / (double)R->pattern.messages : 0;
  cs_cost_params_derive(&R->cost, R->S->routes, &R->S->tt, &R->S->ec, R->S->opt.gamma, mean);
  R->cost_s = R->it->algo->cost(&R->prm, &R->cost);
  if (!(R->t.finished == R->prm.p && !R->t.size_mismatches && !R->t.stray_messages &&
        same_pairs(R->timed_pairs, R->untimed) && R->t.messages == R->pattern.messages &&
        R->t.bytes == R->pattern.bytes)) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "the timed run (%d of %lld ranks finished, %" PRIu64 " messages, %" PRIu64
                " bytes) does not match the schedule (%" PRIu64 " messages, %" PRIu64 " bytes)", R->t.finished,
                (long long)R->prm.p, R->t.messages, R->t.bytes, R->pattern.messages, R->pattern.bytes);
    return false;
  }
  return same_links(R, err);
}

/* The traffic a run reports: the messages delivered in a timed run (equal
 * to the schedule's, same_links), else the schedule's. */
static const cs_linkusage *counted(const run_state *R) { return R->delivered ? R->delivered : R->lu; }

/* The links reported, in the summary and the CSV alike: every link but
 * SimGrid's internal loopback, and that one too when it carried something
 * (a platform file whose hosts have no loopback of their own). */
static bool *listed_links(const run_state *R)
{
  cs_routes *routes = R->S->routes;
  int64_t n = cs_routes_nlinks(routes);
  bool *listed = g_new(bool, n > 0 ? n : 1);
  for (int64_t l = 0; l < n; l++)
    listed[l] = !cs_routes_link_internal(routes, l) || cs_linkusage_link_messages(counted(R), l) > 0;
  return listed;
}

/* Per tier, from the listed links: tiers in order of first appearance among
 * the link ids, the intra-node tier last. */
static void summarise_links(run_state *R)
{
  cs_routes *routes = R->S->routes;
  int64_t n = cs_routes_nlinks(routes);
  const char **tier = g_new(const char *, n > 0 ? n : 1);
  for (int64_t l = 0; l < n; l++)
    tier[l] = cs_routes_link_tier(routes, l);
  R->listed = listed_links(R);
  R->ntiers = cs_linkusage_tiers(counted(R), tier, R->listed, &R->tiers);
  g_free(tier);
  for (size_t i = 0; i + 1 < R->ntiers; i++)
    if (strcmp(R->tiers[i].name, "intra") == 0) {
      cs_tier_summary intra = R->tiers[i];
      memmove(&R->tiers[i], &R->tiers[i + 1], (R->ntiers - i - 1) * sizeof *R->tiers);
      R->tiers[R->ntiers - 1] = intra;
      break;
    }
}

static void per_link_csv(const run_state *R, GString *s)
{
  cs_routes *routes = R->S->routes;
  g_string_append(s, "link,name,tier,src,dst,bytes,messages\n");
  for (int64_t l = 0; l < cs_routes_nlinks(routes); l++)
    if (R->listed[l])
      g_string_append_printf(s, "%" PRId64 ",%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 "\n", l, cs_routes_link_name(routes, l),
                             cs_routes_link_tier(routes, l), cs_routes_link_src(routes, l),
                             cs_routes_link_dst(routes, l), cs_linkusage_link_bytes(counted(R), l),
                             cs_linkusage_link_messages(counted(R), l));
}

/* ---- the record ---- */

static void tier_record(cs_record *t, const cs_tier_summary *s)
{
  char lo[32], hi[32], tot[32];
  cs_human_bytes(lo, sizeof lo, s->min_bytes);
  cs_human_bytes(hi, sizeof hi, s->max_bytes);
  cs_human_bytes(tot, sizeof tot, s->total_bytes);
  cs_rec_i64(t, "links", s->links);
  cs_rec_i64(t, "links_used", s->links_used);
  cs_rec_u64(t, "min_bytes", s->min_bytes);
  cs_rec_u64(t, "max_bytes", s->max_bytes);
  cs_rec_u64(t, "total_bytes", s->total_bytes);
  cs_rec_u64(t, "messages", s->messages);
  cs_rec_str(t, "min_human", lo);
  cs_rec_str(t, "max_human", hi);
  cs_rec_str(t, "total_human", tot);
}

static void cost_record(cs_record *r, const cs_cost_params *c)
{
  static const char *const alpha[CS_NLEVELS] = {"a0", "a1", "a2", "ag"};
  static const char *const beta[CS_NLEVELS] = {"B0", "B1", "B2", "Bg"};
  cs_rec_num(r, "o_send", c->o_send, "%.6g");
  cs_rec_num(r, "o_recv", c->o_recv, "%.6g");
  for (int l = 0; l < CS_NLEVELS; l++)
    cs_rec_num(r, alpha[l], c->alpha[l], "%.6g");
  for (int l = 0; l < CS_NLEVELS; l++)
    cs_rec_num(r, beta[l], c->beta[l], "%.6g");
  cs_rec_num(r, "Bp", c->beta_port, "%.6g");
  cs_rec_num(r, "BL", c->beta_l2, "%.6g");
  cs_rec_num(r, "g", c->gamma, "%.6g");
  cs_rec_num(r, "latency_factor", c->lat_factor, "%.6g");
  cs_rec_num(r, "bandwidth_factor", c->bw_factor, "%.6g");
}

static cs_record *make_record(const run_state *R)
{
  cs_record *r = cs_record_new();
  char *net = cs_platform_describe(R->S->platform);
  cs_rec_str(r, "net", net);
  g_free(net);
  cs_rec_str(r, "coll", cs_coll_name(R->it->algo->coll));
  cs_rec_str(r, "algo", R->it->algo->name);
  cs_rec_i64(r, "p", R->prm.p);
  cs_rec_i64(r, "sn", R->S->tt.sn);
  cs_rec_i64(r, "nps", R->S->tt.nps);
  cs_rec_i64(r, "cpn", R->S->tt.cpn);
  cs_rec_u64(r, "size", R->it->size);
  cs_rec_str(r, "size_is", cs_coll_per_rank(R->it->algo->coll) ? "block" : "bytes");
  cs_rec_u64(r, "messages", R->pattern.messages);
  cs_rec_u64(r, "bytes", R->pattern.bytes);
  cs_rec_u64(r, "max_message_bytes", R->pattern.max_message_bytes);
  if (R->verified >= 0)
    cs_rec_bool(r, "verified", R->verified);
  if (R->lu) {
    cs_rec_str(r, "human_units", "IEC, 1 MiB = 2^20 bytes");
    cs_record *tiers = cs_rec_child(r, "tiers");
    for (size_t i = 0; i < R->ntiers; i++)
      tier_record(cs_rec_child(tiers, R->tiers[i].name), &R->tiers[i]);
    cs_record_set_rows(r, "tiers", "tier");
    cs_linkusage_totals tot = cs_linkusage_get_totals(R->lu);
    cs_rec_u64(r, "network_bytes", tot.network_bytes);
    cs_rec_u64(r, "byte_hops", tot.byte_hops);
    cs_rec_u64(r, "node_pairs", tot.node_pairs);
  }
  if (R->timed) {
    cs_rec_num(r, "sim_time_s", R->t.sim_time_s, "%.9g");
    cs_rec_num(r, "cost_model_s", R->cost_s, "%.9g");
    cs_rec_str(r, "cost_formula", R->it->algo->cost_formula);
    cost_record(cs_rec_child(r, "cost_params"), &R->cost);
    cs_rec_num(r, "beta_s_per_byte", R->beta, "%.6g");
    cs_rec_num(r, "gamma_s_per_byte", R->S->opt.gamma, "%.6g");
    cs_rec_str(r, "model", R->S->ec.model);
    cs_rec_bool(r, "timed_matches_pattern", true);
  }
  return r;
}

static void run_state_clear(run_state *R)
{
  if (R->untimed)
    g_array_free(R->untimed, TRUE);
  if (R->timed_pairs)
    g_array_free(R->timed_pairs, TRUE);
  cs_linkusage_free(R->lu);
  cs_linkusage_free(R->delivered);
  g_free(R->listed);
  g_free(R->tiers);
}

static bool setup(run_state *R, GError **err)
{
  GError *e = NULL;
  if (cs_sched_setup_script(&R->prm, R->it->algo, &R->S->tt, R->it->size, R->it->script, &e))
    return true;
  cs_input_error(err, "%s", e->message);
  g_error_free(e);
  return false;
}

cs_record *cs_coll_run(cs_coll_session *S, const cs_coll_item *it, cs_coll_outputs *out, GError **err)
{
  run_state R = {.S = S, .it = it, .verified = -1};
  bool ok = setup(&R, err) && (!S->opt.verify || verify(&R, err));
  if (ok && S->opt.links)
    R.lu = cs_linkusage_new(cs_routes_nlinks(S->routes), cs_tt_nodes(&S->tt), route_of, S->routes);
  if (ok && S->opt.links && S->opt.timed)
    R.delivered = cs_linkusage_new(cs_routes_nlinks(S->routes), cs_tt_nodes(&S->tt), route_direct, S->routes);
  if (ok && S->opt.timed)
    R.untimed = g_array_new(FALSE, FALSE, sizeof(pair_rec));
  R.pairs_csv = out ? out->pairs : NULL;
  if (R.pairs_csv)
    g_string_append(R.pairs_csv, "src_node,dst_node,messages,bytes\n");
  if (ok)
    run_pattern(&R);
  if (ok && S->opt.timed)
    ok = run_timed(&R, err);
  if (ok && R.lu)
    summarise_links(&R);
  if (ok && R.lu && out && out->per_link)
    per_link_csv(&R, out->per_link);
  cs_record *rec = ok ? make_record(&R) : NULL;
  run_state_clear(&R);
  return rec;
}
