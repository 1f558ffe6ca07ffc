/* The collective pipeline (see collective.h). */
#include "sim/drivers/collective.h"
#include "sim/contracts/hugepages.h"
#include "algorithms/selectors/selector.h"
#include "algorithms/collectives/oblivious.h"
#include "patterns/linkusage.h"
#include "patterns/pattern.h"
#include "sim/checks/replay.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/hierarchy.h"
#include "sim/contracts/progress.h"
#include "sim/contracts/tempdir.h"
#include "sim/contracts/units.h"
#include "sim/drivers/cost_params.h"
#include "sim/drivers/native_run.h"
#include "sim/drivers/trace.h"
#include "sim/engine/sg_routes.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

/* ---- the record's columns ---- */

enum {
  R_TIER, R_LINKS, R_LINKS_USED, R_MIN_BYTES, R_MAX_BYTES, R_TOTAL_BYTES, R_MESSAGES, R_MIN_HUMAN, R_MAX_HUMAN,
  R_TOTAL_HUMAN,
};

#define LINKS "--links"
static const cs_column tier_columns[] = {
    [R_TIER] = {"tier", CS_COL_TEXT, NULL, "", LINKS, CS_COL_KEY | CS_COL_CSV_ONLY,
                "the tier (L1, L2, T, X, Y, Z, eth, intra ...): one CSV row each"},
    [R_LINKS] = {"links", CS_COL_INT, NULL, "links", LINKS, 0, "links of the tier"},
    [R_LINKS_USED] = {"links_used", CS_COL_INT, NULL, "links", LINKS, 0, "links of the tier that carried bytes"},
    [R_MIN_BYTES] = {"min_bytes", CS_COL_INT, NULL, "bytes", LINKS, 0, "fewest bytes on a used link of the tier"},
    [R_MAX_BYTES] = {"max_bytes", CS_COL_INT, NULL, "bytes", LINKS, 0, "most bytes on a link of the tier"},
    [R_TOTAL_BYTES] = {"total_bytes", CS_COL_INT, NULL, "bytes", LINKS, 0, "bytes over all links of the tier"},
    [R_MESSAGES] = {"messages", CS_COL_INT, NULL, "messages", LINKS, CS_COL_NO_CSV,
                    "link crossings of messages on the tier"},
    [R_MIN_HUMAN] = {"min_human", CS_COL_TEXT, NULL, "", LINKS, CS_COL_NO_CSV, "min_bytes in IEC units"},
    [R_MAX_HUMAN] = {"max_human", CS_COL_TEXT, NULL, "", LINKS, CS_COL_NO_CSV, "max_bytes in IEC units"},
    [R_TOTAL_HUMAN] = {"total_human", CS_COL_TEXT, NULL, "", LINKS, CS_COL_NO_CSV, "total_bytes in IEC units"},
};

static const cs_record_kind tier_kind = {"tier", "the traffic on one tier of links", tier_columns,
                                         G_N_ELEMENTS(tier_columns), NULL};

/* The cost models' parameters; a0..ag and B0..Bg by level (CS_NLEVELS). */
enum {
  P_O_SEND, P_O_RECV, P_A0, P_A1, P_A2, P_AG, P_B0, P_B1, P_B2, P_BG, P_BP, P_BL, P_G, P_LAT_FACTOR, P_BW_FACTOR,
};

#define TIMED "--timed"
static const cs_column cost_columns[] = {
    [P_O_SEND] = {"o_send", CS_COL_NUM, "%.6g", "s", TIMED, CS_COL_NO_CSV, "software overhead of a send"},
    [P_O_RECV] = {"o_recv", CS_COL_NUM, "%.6g", "s", TIMED, CS_COL_NO_CSV, "software overhead of a receive"},
    [P_A0] = {"a0", CS_COL_NUM, "%.6g", "s", TIMED, CS_COL_NO_CSV, "latency between two cores of a node"},
    [P_A1] = {"a1", CS_COL_NUM, "%.6g", "s", TIMED, CS_COL_NO_CSV, "latency between two nodes of a supernode"},
    [P_A2] = {"a2", CS_COL_NUM, "%.6g", "s", TIMED, CS_COL_NO_CSV, "latency between two supernodes"},
    [P_AG] = {"ag", CS_COL_NUM, "%.6g", "s", TIMED, CS_COL_NO_CSV, "latency from a gateway node to the landing node of its L2 link"},
    [P_B0] = {"B0", CS_COL_NUM, "%.6g", "s/byte", TIMED, CS_COL_NO_CSV, "time per byte between two cores of a node"},
    [P_B1] = {"B1", CS_COL_NUM, "%.6g", "s/byte", TIMED, CS_COL_NO_CSV, "time per byte between two nodes of a supernode"},
    [P_B2] = {"B2", CS_COL_NUM, "%.6g", "s/byte", TIMED, CS_COL_NO_CSV, "time per byte between two supernodes"},
    [P_BG] = {"Bg", CS_COL_NUM, "%.6g", "s/byte", TIMED, CS_COL_NO_CSV, "time per byte from a gateway node over its L2 link"},
    [P_BP] = {"Bp", CS_COL_NUM, "%.6g", "s/byte", TIMED, CS_COL_NO_CSV, "time per byte of a node's port (0: none)"},
    [P_BL] = {"BL", CS_COL_NUM, "%.6g", "s/byte", TIMED, CS_COL_NO_CSV, "time per byte of the L2 link between two supernodes (0: none)"},
    [P_G] = {"g", CS_COL_NUM, "%.6g", "s/byte", TIMED, CS_COL_NO_CSV, "time per byte combined by a reducing receive"},
    [P_LAT_FACTOR] = {"latency_factor", CS_COL_NUM, "%.6g", "", TIMED, CS_COL_NO_CSV,
                      "the network model's latency factor"},
    [P_BW_FACTOR] = {"bandwidth_factor", CS_COL_NUM, "%.6g", "", TIMED, CS_COL_NO_CSV,
                     "the network model's bandwidth factor"},
};

static const cs_record_kind cost_kind = {"cost_params", "the cost models' parameters", cost_columns,
                                         G_N_ELEMENTS(cost_columns), NULL};

enum {
  K_NET, K_COLL, K_ALGO, K_P, K_SN, K_NPS, K_CPN, K_SIZE, K_SIZE_IS, K_MESSAGES, K_BYTES, K_MAX_MESSAGE, K_VERIFIED,
  K_HUMAN_UNITS, K_TIERS, K_NETWORK_BYTES, K_BYTE_HOPS, K_NODE_PAIRS, K_SIM_TIME, K_COST_MODEL, K_COST_FORMULA,
  K_COST_PARAMS, K_BETA, K_GAMMA, K_MODEL, K_TIMED_MATCHES, K_SELECTOR, K_SELECTED_BY, K_ENGINE, K_LAST_RANK,
  K_LOGGOPS, K_SIM_TIME_NS,
};

static const cs_column columns[] = {
    [K_NET] = {"net", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the platform's canonical spec"},
    [K_COLL] = {"coll", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the collective"},
    [K_ALGO] = {"algo", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the algorithm (collsim collective --list)"},
    [K_P] = {"p", CS_COL_INT, NULL, "ranks", NULL, CS_COL_KEY, "ranks taking part"},
    [K_SN] = {"sn", CS_COL_INT, NULL, "supernodes", NULL, CS_COL_NO_CSV, "supernodes of the two-tier view"},
    [K_NPS] = {"nps", CS_COL_INT, NULL, "nodes", NULL, CS_COL_NO_CSV, "nodes per supernode"},
    [K_CPN] = {"cpn", CS_COL_INT, NULL, "ranks", NULL, CS_COL_NO_CSV, "ranks (cores) per node"},
    [K_SIZE] = {"size", CS_COL_INT, NULL, "bytes", NULL, CS_COL_KEY, "the message size (see size_is)"},
    [K_SIZE_IS] = {"size_is", CS_COL_TEXT, NULL, "", NULL, CS_COL_NO_CSV,
                   "block: size is each rank's block (alltoall: each pair's); bytes: the whole message; none: barrier"},
    [K_MESSAGES] = {"messages", CS_COL_INT, NULL, "messages", NULL, 0, "messages of the pattern"},
    [K_BYTES] = {"bytes", CS_COL_INT, NULL, "bytes", NULL, 0, "bytes of the pattern"},
    [K_MAX_MESSAGE] = {"max_message_bytes", CS_COL_INT, NULL, "bytes", NULL, CS_COL_NO_CSV, "largest message"},
    [K_VERIFIED] = {"verified", CS_COL_BOOL, NULL, "", "--verify", CS_COL_NO_CSV,
                    "the replayed pattern computes the collective's result"},
    [K_HUMAN_UNITS] = {"human_units", CS_COL_TEXT, NULL, "", LINKS, CS_COL_NO_CSV, "the units of the *_human fields"},
    [K_TIERS] = {"tiers", CS_COL_RECORD, NULL, "", LINKS, 0, "traffic per tier of links, one record per tier", &tier_kind},
    [K_NETWORK_BYTES] = {"network_bytes", CS_COL_INT, NULL, "bytes", LINKS, CS_COL_NO_CSV,
                         "bytes that left their node"},
    [K_BYTE_HOPS] = {"byte_hops", CS_COL_INT, NULL, "bytes x links", LINKS, CS_COL_NO_CSV,
                     "bytes times the links each crossed"},
    [K_NODE_PAIRS] = {"node_pairs", CS_COL_INT, NULL, "pairs", LINKS, CS_COL_NO_CSV,
                      "ordered pairs of nodes that exchanged bytes"},
    [K_SIM_TIME] = {"sim_time_s", CS_COL_NUM, "%.9g", "s", TIMED, 0, "simulated time of the collective"},
    [K_COST_MODEL] = {"cost_model_s", CS_COL_NUM, "%.9g", "s", TIMED, 0, "the algorithm's cost model's prediction"},
    [K_COST_FORMULA] = {"cost_formula", CS_COL_TEXT, NULL, "", TIMED, CS_COL_NO_CSV,
                        "the cost model's formula (docs/cost-models.md); JSON and table only: the same text on every row of an algorithm"},
    [K_COST_PARAMS] = {"cost_params", CS_COL_RECORD, NULL, "", TIMED, CS_COL_NO_CSV,
                       "the parameters the formula was evaluated with", NULL, &cost_kind},
    [K_BETA] = {"beta_s_per_byte", CS_COL_NUM, "%.6g", "s/byte", TIMED, CS_COL_NO_CSV,
                "time per byte of the slowest link"},
    [K_GAMMA] = {"gamma_s_per_byte", CS_COL_NUM, "%.6g", "s/byte", TIMED, CS_COL_NO_CSV,
                 "computation time per byte reduced"},
    [K_MODEL] = {"model", CS_COL_TEXT, NULL, "", TIMED, CS_COL_NO_CSV, "SimGrid network model"},
    [K_TIMED_MATCHES] = {"timed_matches_pattern", CS_COL_BOOL, NULL, "", TIMED, CS_COL_NO_CSV,
                         "the timed run sent exactly the pattern's messages"},
    /* JSON and tables only: a CSV's columns are the same whatever the options,
     * and the committed collective CSVs must not change */
    [K_SELECTOR] = {"selector", CS_COL_TEXT, NULL, "", "--selector", CS_COL_NO_CSV,
                    "--algo auto: the library whose default decision chose algo (docs/selectors.md)"},
    [K_SELECTED_BY] = {"selected_by", CS_COL_TEXT, NULL, "", "--selector", CS_COL_NO_CSV,
                       "--algo auto: the rule that chose algo, citing the library's source"},
    [K_ENGINE] = {"engine", CS_COL_TEXT, NULL, "", "--engine native", CS_COL_NO_CSV,
                  "the engine of the timed run (native: sim/engine/native)"},
    [K_LAST_RANK] = {"last_rank", CS_COL_INT, NULL, "rank", "--engine native", CS_COL_NO_CSV,
                     "the rank finishing last (sim_time_s), the first of them"},
    [K_LOGGOPS] = {"loggops", CS_COL_TEXT, NULL, "", "--engine native", CS_COL_NO_CSV,
                   "LogGOPS parameters L,o,g,G,S,O (ns, ns, ns, ns/byte, bytes, ns/byte)"},
    [K_SIM_TIME_NS] = {"sim_time_ns", CS_COL_INT, NULL, "ns", "--engine native", CS_COL_NO_CSV,
                       "sim_time_s exactly, in the model's integer nanoseconds"},
};

const cs_record_kind cs_coll_record_kind = {"collective", "one collective on one platform at one size", columns,
                                            G_N_ELEMENTS(columns), NULL};

/* --verify refuses shapes whose replay state would exceed this. */
#define MAX_REPLAY_BYTES (4.0 * (1 << 30))

struct cs_coll_session {
  const cs_platform *platform;
  cs_coll_options opt;
  cs_two_tier tt;
  char *xml;             /* the platform file runs load */
  bool xml_is_temp;
  cs_engine_config ec;
  int *host_of;
  /* --links (traffic per link) and --timed (the cost parameters): the
   * platform's links and routes, without SimGrid */
  cs_netmap *map;
  cs_route_buf route_buf;
  int64_t *by_name; /* link ids in natural order of names: the per-link CSV's order and numbers */
  /* --timed --links: SimGrid's own routes, for the links of the messages
   * delivered, as netmap ids (sg_to_map) */
  cs_routes *sg;
  int64_t *sg_to_map;
  int32_t *sg_buf;
  bool sg_unmapped; /* SimGrid routed over a link the netmap does not have */
};

/* SimGrid's routes for the timed run's delivered messages, mapped by name. */
static bool open_simgrid_routes(cs_coll_session *s, GError **err)
{
  if (!(s->sg = cs_routes_open(&s->ec, cs_tt_nodes(&s->tt), NULL, err)))
    return false;
  int64_t n = cs_routes_nlinks(s->sg);
  s->sg_to_map = g_new(int64_t, n > 0 ? n : 1);
  for (int64_t l = 0; l < n; l++)
    s->sg_to_map[l] = cs_netmap_link_id(s->map, cs_routes_link_name(s->sg, l));
  return true;
}

cs_coll_session *cs_coll_session_open(const cs_platform *p, const cs_coll_options *o, const cs_engine_config *ec,
                                      GError **err)
{
  cs_coll_session *s = g_new0(cs_coll_session, 1);
  s->platform = p;
  s->opt = *o;
  s->ec = *ec;
  if (!p) { /* the native engine without a platform: one rank per node */
    cs_hierarchy h;
    cs_hier_flat(&h, o->ranks, 1, "?");
    cs_hier_two_tier(&h, &s->tt);
    return s;
  }
  cs_platform_two_tier(p, &s->tt);
  if (!o->links && !o->timed)
    return s;
  bool simgrid = o->timed && !o->native;
  if (simgrid && !cs_platform_xml_for_run(p, &s->xml, &s->xml_is_temp, err))
    goto fail;
  s->ec.platform_file = s->xml;
  s->ec.cores = p->cores;
  s->ec.fifo_channels = 1; /* MPI order per pair: a pipeline (ring) is not a fair share */
  s->ec.recv_window = 8;   /* receives matched in order of arrival, as MPI does */
  if (p->mapping != CS_MAP_IN_ORDER) {
    s->host_of = cs_platform_host_map(p, s->tt.p);
    s->ec.host_of = s->host_of;
  }
  if (!(s->map = cs_platform_netmap(p, err)) || (o->links && simgrid && !open_simgrid_routes(s, err)))
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
  cs_netmap_free(s->map);
  cs_route_buf_clear(&s->route_buf);
  g_free(s->by_name);
  if (s->sg)
    cs_routes_close(s->sg);
  g_free(s->sg_to_map);
  g_free(s->sg_buf);
  if (s->xml_is_temp)
    cs_tempfile_remove(s->xml);
  g_free(s->xml);
  g_free(s->host_of);
  g_free(s);
}

/* ---- one run ---- */

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
  cs_pair_digest *untimed, timed_pairs; /* traffic per node pair: the pattern's (timed runs), the timed run's */
  GString *pairs_csv;
  cs_coll_timed t;
  bool timed;
  cs_cost_params cost;
  double cost_s, beta;
  uint32_t last_rank; /* native engine */
  uint64_t finish_ns;
} run_state;

static void to_sinks(void *user, int64_t src, int64_t dst, uint64_t bytes, uint64_t messages)
{
  run_state *R = user;
  if (R->lu)
    cs_linkusage_add(R->lu, src, dst, bytes, messages);
  if (R->pairs_csv)
    g_string_append_printf(R->pairs_csv, "%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 "\n", src, dst, messages,
                           bytes);
  if (R->untimed)
    cs_pair_digest_add(R->untimed, src, dst, bytes, messages);
}

static void to_timed(void *user, int64_t src, int64_t dst, uint64_t bytes, uint64_t messages)
{
  cs_pair_digest_add(user, src, dst, bytes, messages);
}

static int route_of(void *ctx, int64_t a, int64_t b, const int32_t **links)
{
  cs_coll_session *S = ctx;
  return cs_netmap_route(S->map, &S->route_buf, a, b, links);
}

/* SimGrid's route, asked for every message delivered, as netmap ids. */
static int route_direct(void *ctx, int64_t a, int64_t b, const int32_t **links)
{
  cs_coll_session *S = ctx;
  const int32_t *sg;
  int n = cs_routes_get_direct(S->sg, a, b, &sg);
  S->sg_buf = g_renew(int32_t, S->sg_buf, n > 0 ? n : 1);
  for (int i = 0; i < n; i++) {
    S->sg_unmapped |= S->sg_to_map[sg[i]] < 0;
    S->sg_buf[i] = S->sg_to_map[sg[i]] < 0 ? 0 : (int32_t)S->sg_to_map[sg[i]];
  }
  *links = S->sg_buf;
  return n;
}

static void pattern_progress(void *user, int64_t done)
{
  (void)done;
  cs_progress_done(user, 1, FALSE);
}

static void run_pattern(run_state *R)
{
  if (R->it->goal) {
    cs_goal_pattern(R->it->goal, &R->S->tt, to_sinks, R, &R->pattern);
    return;
  }
  size_t chunks = (size_t)((R->prm.p + CS_PATTERN_CHUNK - 1) / CS_PATTERN_CHUNK);
  /* Below a quarter million ranks the pattern takes well under a second. */
  gboolean quiet = R->S->opt.quiet || R->prm.p < (1 << 18);
  cs_progress *pg = cs_progress_new(stderr, "pattern (chunks of 4096 ranks)", chunks, (double)chunks, quiet);
  cs_pattern_generate(R->it->algo, &R->prm, to_sinks, R, &R->pattern, pattern_progress, pg);
  cs_progress_finish(pg);
}

/* Every exchange had a route (a user's file may lack one that SimGrid would
 * stop on, e.g. a host's route to itself in a Dijkstra zone without
 * routes). */
static bool all_routed(const run_state *R, GError **err)
{
  int64_t a, b;
  if (!cs_linkusage_unrouted(R->lu, &a, &b))
    return true;
  char *pa = cs_platform_host_name(R->S->platform, a), *pb = cs_platform_host_name(R->S->platform, b);
  char *d = cs_platform_describe(R->S->platform);
  cs_input_error(err, "platform %s has no route from host %s to host %s, which the run needs", d, pa, pb);
  g_free(d);
  g_free(pa);
  g_free(pb);
  return false;
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

/* Every link carried, in the timed run, the bytes and messages the schedule
 * routes over it. */
static bool same_links(const run_state *R, GError **err)
{
  if (!R->delivered)
    return true;
  const cs_netmap *map = R->S->map;
  if (R->S->sg_unmapped) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "SimGrid routed a message over a link that collsim's route table of "
                "the platform does not have");
    return false;
  }
  for (int64_t l = 0; l < map->nlinks; l++) {
    uint64_t b = cs_linkusage_link_bytes(R->delivered, l), m = cs_linkusage_link_messages(R->delivered, l);
    uint64_t want_b = cs_linkusage_link_bytes(R->lu, l), want_m = cs_linkusage_link_messages(R->lu, l);
    if (b != want_b || m != want_m) {
      g_set_error(err, CS_INTERNAL_ERROR, 1, "link %s carried %" PRIu64 " bytes in %" PRIu64 " messages in the timed "
                  "run, but the schedule routes %" PRIu64 " bytes in %" PRIu64 " messages over it",
                  cs_netmap_link_name(map, l), b, m, want_b, want_m);
      return false;
    }
  }
  return true;
}

/* The native engine's run: its messages checked as the SimGrid run's. */
static bool run_native(run_state *R, GError **err)
{
  cs_native_timed run = {.algo = R->it->algo, .prm = &R->prm, .goal = R->it->goal, .tt = &R->S->tt,
                         .gamma = R->S->opt.gamma, .model = R->S->opt.loggops, .map = R->S->map,
                         .delivered = R->delivered,
                         .pairs = &R->timed_pairs, .ec = &R->S->ec};
  if (!cs_native_timed_run(&run, &R->t, &R->last_rank, &R->finish_ns, err))
    return false;
  R->timed = true;
  return true;
}

static bool run_simgrid(run_state *R, GError **err)
{
  R->S->ec.progress_messages = (double)R->pattern.messages; /* the untimed pattern's: progress against it */
  if (!cs_coll_run_timed(R->it->algo, &R->prm, &R->S->ec, R->S->opt.gamma, to_timed, &R->timed_pairs, R->delivered,
                         &R->t, err))
    return false;
  R->timed = true;
  R->beta = 1.0 / R->S->platform->link_bw;
  double mean = R->pattern.messages ? (double)R->pattern.bytes / (double)R->pattern.messages : 0;
  cs_cost_params_derive(&R->cost, R->S->map, &R->S->tt, &R->S->ec, R->S->opt.gamma, mean);
  R->cost_s = R->it->algo->cost(&R->prm, &R->cost);
  return true;
}

static bool run_timed(run_state *R, GError **err)
{
  if (!(R->S->opt.native ? run_native(R, err) : run_simgrid(R, err)))
    return false;
  /* a GOAL file may receive with other sizes than sent (LogGOPSim takes the message's) */
  bool sizes_ok = !R->t.size_mismatches || R->it->goal;
  if (!(R->t.finished == R->prm.p && sizes_ok && !R->t.stray_messages &&
        cs_pair_digest_equal(&R->timed_pairs, R->untimed) && R->t.messages == R->pattern.messages &&
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
  const cs_netmap *map = R->S->map;
  int64_t n = map->nlinks;
  bool *listed = g_new(bool, n > 0 ? n : 1);
  for (int64_t l = 0; l < n; l++)
    listed[l] = !cs_netmap_link_internal(map, l) || cs_linkusage_link_messages(counted(R), l) > 0;
  return listed;
}

/* Per tier, from the listed links, in the netmap's order of tiers (the
 * intra-node tier last). */
static void summarise_links(run_state *R)
{
  const cs_netmap *map = R->S->map;
  int64_t n = map->nlinks;
  const char **tier = g_new(const char *, n > 0 ? n : 1);
  for (int64_t l = 0; l < n; l++)
    tier[l] = cs_netmap_link_tier(map, l);
  R->listed = listed_links(R);
  R->ntiers = cs_linkusage_tiers(counted(R), tier, R->listed, &R->tiers);
  g_free(tier);
  cs_tier_summary *sorted = g_new(cs_tier_summary, R->ntiers > 0 ? R->ntiers : 1);
  size_t k = 0;
  for (int t = 0; t < map->ntiers; t++)
    for (size_t i = 0; i < R->ntiers; i++)
      if (strcmp(R->tiers[i].name, map->tier_name[t]) == 0)
        sorted[k++] = R->tiers[i];
  g_free(R->tiers);
  R->tiers = sorted;
}

static void per_link_csv(run_state *R, GString *s)
{
  const cs_netmap *map = R->S->map;
  if (!R->S->by_name)
    R->S->by_name = cs_netmap_links_by_name(map);
  g_string_append(s, "link,name,tier,src,dst,bytes,messages\n");
  GString *src = g_string_new(NULL), *dst = g_string_new(NULL);
  for (int64_t k = 0; k < map->nlinks; k++) {
    int64_t l = R->S->by_name[k];
    if (!R->listed[l])
      continue;
    g_string_truncate(src, 0);
    g_string_truncate(dst, 0);
    if (!map->ops->link_ends(map, l, src, dst)) {
      g_string_assign(src, "?");
      g_string_assign(dst, "?");
    }
    char *name = cs_netmap_link_name(map, l);
    g_string_append_printf(s, "%" PRId64 ",%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 "\n", k, name,
                           cs_netmap_link_tier(map, l), src->str, dst->str, cs_linkusage_link_bytes(counted(R), l),
                           cs_linkusage_link_messages(counted(R), l));
    g_free(name);
  }
  g_string_free(src, TRUE);
  g_string_free(dst, TRUE);
}

/* ---- the record ---- */

static void tier_record(cs_record *t, const cs_tier_summary *s)
{
  char lo[32], hi[32], tot[32];
  cs_human_bytes(lo, sizeof lo, s->min_bytes);
  cs_human_bytes(hi, sizeof hi, s->max_bytes);
  cs_human_bytes(tot, sizeof tot, s->total_bytes);
  cs_col_i64(t, &tier_columns[R_LINKS], s->links);
  cs_col_i64(t, &tier_columns[R_LINKS_USED], s->links_used);
  cs_col_u64(t, &tier_columns[R_MIN_BYTES], s->min_bytes);
  cs_col_u64(t, &tier_columns[R_MAX_BYTES], s->max_bytes);
  cs_col_u64(t, &tier_columns[R_TOTAL_BYTES], s->total_bytes);
  cs_col_u64(t, &tier_columns[R_MESSAGES], s->messages);
  cs_col_str(t, &tier_columns[R_MIN_HUMAN], lo);
  cs_col_str(t, &tier_columns[R_MAX_HUMAN], hi);
  cs_col_str(t, &tier_columns[R_TOTAL_HUMAN], tot);
}

static void cost_record(cs_record *r, const cs_cost_params *c)
{
  cs_col_num(r, &cost_columns[P_O_SEND], c->o_send);
  cs_col_num(r, &cost_columns[P_O_RECV], c->o_recv);
  for (int l = 0; l < CS_NLEVELS; l++)
    cs_col_num(r, &cost_columns[P_A0 + l], c->alpha[l]);
  for (int l = 0; l < CS_NLEVELS; l++)
    cs_col_num(r, &cost_columns[P_B0 + l], c->beta[l]);
  cs_col_num(r, &cost_columns[P_BP], c->beta_port);
  cs_col_num(r, &cost_columns[P_BL], c->beta_l2);
  cs_col_num(r, &cost_columns[P_G], c->gamma);
  cs_col_num(r, &cost_columns[P_LAT_FACTOR], c->lat_factor);
  cs_col_num(r, &cost_columns[P_BW_FACTOR], c->bw_factor);
}

static void native_columns(cs_record *r, const run_state *R)
{
  const cs_loggops_params *m = &R->S->opt.loggops;
  char text[128];
  g_snprintf(text, sizeof text, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, m->L, m->o,
             m->g, m->G, m->S, m->O);
  cs_col_num(r, &columns[K_SIM_TIME], R->t.sim_time_s);
  cs_col_u64(r, &columns[K_SIM_TIME_NS], R->finish_ns);
  cs_col_i64(r, &columns[K_LAST_RANK], R->last_rank);
  cs_col_str(r, &columns[K_ENGINE], "native");
  cs_col_str(r, &columns[K_MODEL], cs_native_model_of(m));
  cs_col_str(r, &columns[K_LOGGOPS], text);
  if (!R->it->goal)
    cs_col_num(r, &columns[K_GAMMA], R->S->opt.gamma);
  cs_col_bool(r, &columns[K_TIMED_MATCHES], true);
}

static cs_record *make_record(const run_state *R)
{
  cs_record *r = cs_record_new();
  char *net = R->S->platform ? cs_platform_describe(R->S->platform) : g_strdup("none");
  cs_col_str(r, &columns[K_NET], net);
  g_free(net);
  cs_col_str(r, &columns[K_COLL], R->it->goal ? "goal" : cs_coll_name(R->it->algo->coll));
  cs_col_str(r, &columns[K_ALGO], R->it->goal ? R->it->goal_name : R->it->algo->name);
  cs_col_i64(r, &columns[K_P], R->prm.p);
  cs_col_i64(r, &columns[K_SN], R->S->tt.sn);
  cs_col_i64(r, &columns[K_NPS], R->S->tt.nps);
  cs_col_i64(r, &columns[K_CPN], R->S->tt.cpn);
  cs_col_u64(r, &columns[K_SIZE], R->it->size);
  cs_coll coll = R->it->algo ? R->it->algo->coll : CS_COLL_SCATTER;
  if (!R->it->goal)
    cs_col_str(r, &columns[K_SIZE_IS], !cs_coll_sized(coll) ? "none" : cs_coll_per_rank(coll) ? "block" : "bytes");
  cs_col_u64(r, &columns[K_MESSAGES], R->pattern.messages);
  cs_col_u64(r, &columns[K_BYTES], R->pattern.bytes);
  cs_col_u64(r, &columns[K_MAX_MESSAGE], R->pattern.max_message_bytes);
  if (R->verified >= 0)
    cs_col_bool(r, &columns[K_VERIFIED], R->verified);
  if (R->lu) {
    cs_col_str(r, &columns[K_HUMAN_UNITS], "IEC, 1 MiB = 2^20 bytes");
    cs_record *tiers = cs_col_child(r, &columns[K_TIERS]);
    for (size_t i = 0; i < R->ntiers; i++)
      tier_record(cs_rec_child(tiers, R->tiers[i].name), &R->tiers[i]);
    cs_col_set_rows(r, &columns[K_TIERS]);
    cs_linkusage_totals tot = cs_linkusage_get_totals(R->lu);
    cs_col_u64(r, &columns[K_NETWORK_BYTES], tot.network_bytes);
    cs_col_u64(r, &columns[K_BYTE_HOPS], tot.byte_hops);
    cs_col_u64(r, &columns[K_NODE_PAIRS], tot.node_pairs);
  }
  if (R->timed && R->S->opt.native)
    native_columns(r, R);
  else if (R->timed) {
    cs_col_num(r, &columns[K_SIM_TIME], R->t.sim_time_s);
    cs_col_num(r, &columns[K_COST_MODEL], R->cost_s);
    cs_col_str(r, &columns[K_COST_FORMULA], R->it->algo->cost_formula);
    cost_record(cs_col_child(r, &columns[K_COST_PARAMS]), &R->cost);
    cs_col_num(r, &columns[K_BETA], R->beta);
    cs_col_num(r, &columns[K_GAMMA], R->S->opt.gamma);
    cs_col_str(r, &columns[K_MODEL], R->S->ec.model);
    cs_col_bool(r, &columns[K_TIMED_MATCHES], true);
  }
  if (R->it->selector) {
    cs_col_str(r, &columns[K_SELECTOR], R->it->selector->name);
    cs_col_str(r, &columns[K_SELECTED_BY], R->it->selected_by);
  }
  return r;
}

static void run_state_clear(run_state *R)
{
  g_free(R->untimed);
  cs_linkusage_free(R->lu);
  cs_linkusage_free(R->delivered);
  g_free(R->listed);
  g_free(R->tiers);
}

/* A GOAL schedule on the session's ranks. */
static bool setup_goal(run_state *R, GError **err)
{
  if ((int64_t)R->it->goal->p != R->S->tt.p)
    return cs_input_error(err, "the GOAL file %s has %" PRIu32 " ranks but the platform has %" PRId64,
                          R->it->goal_name, R->it->goal->p, R->S->tt.p);
  R->prm = (cs_sched_params){.tt = &R->S->tt, .p = R->S->tt.p};
  return true;
}

static bool setup(run_state *R, GError **err)
{
  if (R->it->goal)
    return setup_goal(R, err);
  GError *e = NULL;
  const cs_coll_algo *a = R->it->algo;
  if (R->it->segment && a->plan != cs_obl_plan_segments)
    return cs_input_error(err, "--segment applies to the segmented broadcasts (pipeline, chain, bintree), not %s %s",
                          cs_coll_name(a->coll), a->name);
  if (cs_sched_setup_segment(&R->prm, a, &R->S->tt, R->it->size, R->it->script, R->it->segment, &e))
    return true;
  cs_input_error(err, "%s", e->message);
  g_error_free(e);
  return false;
}

/* CPU seconds of this process so far. */
static double cpu_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* COLLSIM_PHASE_TIMES=1: the CPU time of the untimed pattern and of the
 * timed run (the engine, with its check against the pattern) on stderr,
 * and whether malloc was asked for huge pages (hugepages.h), so
 * that a benchmark can set an engine's own time beside a peer's event loop
 * (bench/engines.sh).  Not part of the output: it varies from run to run. */
static void report_phase_times(const run_state *R, double pattern_s, double timed_s)
{
  if (g_strcmp0(g_getenv("COLLSIM_PHASE_TIMES"), "1") != 0)
    return;
  fprintf(stderr, "collsim: phase times (CPU s): pattern %.3f", pattern_s);
  if (R->S->opt.timed)
    fprintf(stderr, ", timed run (%s engine) %.3f", R->S->opt.native ? "native" : "SimGrid", timed_s);
  fprintf(stderr, "; malloc huge pages: %s\n", cs_hugepages_asked() ? "yes" : "no");
}

cs_record *cs_coll_run(cs_coll_session *S, const cs_coll_item *it, cs_coll_outputs *out, GError **err)
{
  run_state R = {.S = S, .it = it, .verified = -1};
  bool ok = setup(&R, err) && (!S->opt.verify || verify(&R, err));
  if (ok && S->opt.links)
    R.lu = cs_linkusage_new(S->map->nlinks, cs_tt_nodes(&S->tt), route_of, S);
  if (ok && S->opt.links && S->opt.timed)
    R.delivered = cs_linkusage_new(S->map->nlinks, cs_tt_nodes(&S->tt), S->opt.native ? route_of : route_direct, S);
  if (ok && out && out->goal)
    ok = cs_goal_write(out->goal, it->algo, &R.prm, S->opt.gamma, err);
  if (ok && S->opt.timed)
    R.untimed = g_new0(cs_pair_digest, 1);
  R.pairs_csv = out ? out->pairs : NULL;
  if (R.pairs_csv)
    g_string_append(R.pairs_csv, "src_node,dst_node,messages,bytes\n");
  double t0 = cpu_seconds();
  if (ok)
    run_pattern(&R);
  double t1 = cpu_seconds();
  if (ok && R.lu)
    ok = all_routed(&R, err);
  if (ok && S->opt.timed)
    ok = run_timed(&R, err);
  if (ok)
    report_phase_times(&R, t1 - t0, cpu_seconds() - t1);
  if (ok && R.lu)
    summarise_links(&R);
  if (ok && R.lu && out && out->per_link)
    per_link_csv(&R, out->per_link);
  cs_record *rec = ok ? make_record(&R) : NULL;
  run_state_clear(&R);
  return rec;
}
