/* One run of the MCMC benchmark (see mcmc_run.h).
 *
 * Verification: the items the group leaders counted add up to the items of
 * every chain (no item lost or done twice); every process ended its part;
 * the none mode sent no message.  Regroupings: mean, population standard
 * deviation, min and max over the processes (Table 1).
 * With a failure (algorithms/mcmc/recovery.c): the items are not checked
 * (the failed process's group stops short); a group-collective rebuild must
 * give every survivor n - 1 and never send to the failed process; the
 * parent-collective rebuild must end in a deadlock the engine detects, with
 * the stuck ranks reported (the expected outcome, not an error). */
#include "sim/drivers/mcmc_run.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/transport.h"

#include <math.h>
#include <string.h>

typedef struct mcmc_state {
  cs_mcmc_run run;
  const cs_mcmc_params *prm;
} mcmc_state;

static void process_main(cs_proc *p, void *user)
{
  mcmc_state *st = user;
  st->prm->balance->run(p, &st->run);
  cs_serve(p);
}

static cs_world *make_world(const cs_mcmc_params *prm)
{
  cs_world_config wc;
  cs_world_config_defaults(&wc);
  wc.n = prm->cfg.n;
  wc.per_process = 1;
  wc.per_machine = prm->ranks_per_host;
  wc.share = false;
  wc.map = "array";
  return cs_world_new(&wc);
}

static void summarise_failure(const mcmc_state *st, const cs_proc *procs, cs_mcmc_result *res)
{
  res->rebuilt_min = -1;
  for (int64_t r = 0; r < st->prm->cfg.n; r++) {
    res->dropped_sends += cs_proc_dropped_sends(&procs[r]);
    int got = st->run.procs[r].rebuilt_size;
    if (r != st->prm->cfg.fail_rank && (res->rebuilt_min < 0 || got < res->rebuilt_min))
      res->rebuilt_min = got;
  }
  res->deadlocked = cs_procs_deadlocked();
  int count = 0;
  const cs_stuck *stuck = cs_procs_stuck(&count);
  res->stuck = count;
  int shown = 0; /* the first stuck rank waiting for the failed one, if any */
  for (int i = 0; i < count; i++)
    if (stuck[i].src == st->prm->cfg.fail_rank) {
      shown = i;
      break;
    }
  if (count > 0)
    res->stuck_example = g_strdup_printf("rank %d waits for rank %d (tag %d)", stuck[shown].rank, stuck[shown].src,
                                         stuck[shown].tag);
}

static void summarise(const mcmc_state *st, const cs_proc *procs, cs_mcmc_result *res)
{
  int64_t n = st->prm->cfg.n;
  double sum = 0, sq = 0;
  res->regroupings_min = INT32_MAX;
  if (st->prm->cfg.fail_rank >= 0)
    summarise_failure(st, procs, res);
  for (int64_t r = 0; r < n; r++) {
    const cs_mcmc_proc *q = &st->run.procs[r];
    res->time_s = fmax(res->time_s, q->finished_at);
    res->items += q->items_led;
    sum += q->regroupings;
    sq += (double)q->regroupings * q->regroupings;
    res->regroupings_min = q->regroupings < res->regroupings_min ? q->regroupings : res->regroupings_min;
    res->regroupings_max = q->regroupings > res->regroupings_max ? q->regroupings : res->regroupings_max;
    const cs_counters *c = cs_proc_counters(&procs[r], CS_PHASE_ALGO);
    res->messages += c->messages;
    res->bytes += c->bytes;
  }
  res->regroupings_mean = sum / (double)n;
  res->regroupings_sd = sqrt(fmax(0, sq / (double)n - res->regroupings_mean * res->regroupings_mean));
  res->ideal_s = cs_mcmc_ideal_s(&st->prm->cfg);
  res->baseline_s = cs_mcmc_baseline_s(&st->prm->cfg);
  res->sim_time_s = cs_procs_clock();
}

static bool verify_failure(const mcmc_state *st, cs_mcmc_result *res)
{
  const cs_mcmc_config *c = &st->prm->cfg;
  if (g_strcmp0(c->rebuild, "parent") == 0) {
    if (!res->deadlocked || res->stuck == 0)
      res->why = g_strdup("the parent-collective rebuild was expected to deadlock and did not");
  } else if (res->deadlocked)
    res->why = g_strdup_printf("the rebuild deadlocked: %s", res->stuck_example ? res->stuck_example : "?");
  else if (res->rebuilt_min != c->n - 1)
    res->why = g_strdup_printf("a survivor's allreduce gave %d, not n - 1 = %lld", res->rebuilt_min,
                               (long long)(c->n - 1));
  else if (res->dropped_sends > 0)
    res->why = g_strdup_printf("%llu messages were sent to the failed process", (unsigned long long)res->dropped_sends);
  res->verified = res->why == NULL;
  return res->verified;
}

static bool verify(const mcmc_state *st, cs_mcmc_result *res)
{
  const cs_mcmc_params *prm = st->prm;
  if (prm->cfg.fail_rank >= 0)
    return verify_failure(st, res);
  int64_t want = cs_mcmc_total_items(&prm->cfg);
  if (res->items != want)
    res->why = g_strdup_printf("the groups did %lld items, the chains hold %lld", (long long)res->items,
                               (long long)want);
  for (int64_t r = 0; !res->why && r < prm->cfg.n; r++)
    if (!st->run.procs[r].done && r != prm->cfg.fail_rank)
      res->why = g_strdup_printf("process %lld did not finish", (long long)r);
  if (!res->why && prm->balance->silent && res->messages > 0)
    res->why = g_strdup_printf("the %s mode sent %llu messages", prm->balance->name, (unsigned long long)res->messages);
  res->verified = res->why == NULL;
  return res->verified;
}

int cs_mcmc_bench_run(const cs_mcmc_params *prm, cs_mcmc_result *res, GError **err)
{
  memset(res, 0, sizeof *res);
  mcmc_state st = {.prm = prm};
  st.run.cfg = &prm->cfg;
  st.run.world = make_world(prm);
  st.run.ids = cs_ctxids_new(CS_CTXID_MASK, prm->cfg.n, CS_LID_BITS_DEFAULT, CS_LBI_BITS_DEFAULT);
  st.run.procs = g_new0(cs_mcmc_proc, (gsize)prm->cfg.n);
  cs_proc *procs = g_new0(cs_proc, (gsize)prm->cfg.n);
  cs_engine_config ec = prm->engine;
  ec.n = (int)prm->cfg.n;
  ec.cores = prm->ranks_per_host;
  ec.shared_cpu = 0;
  ec.fail_rank = prm->cfg.fail_rank;
  ec.fail_at = prm->cfg.fail_at;
  /* Progress: the walkers' computation, whatever the mode: each item costs
   * its group t_item of compute in all (t_item / size on each member; the
   * noise averages out), so the run computes items x t_item seconds. */
  ec.progress_compute_s = (double)cs_mcmc_total_items(&prm->cfg) * prm->cfg.t_item;
  gint64 t0 = g_get_monotonic_time();
  int rc = 0;
  if (!cs_procs_run(&prm->procs, &ec, procs, process_main, &st, err))
    rc = err && *err && (*err)->domain == CS_INPUT_ERROR ? 2 : 1;
  else if (prm->cfg.fail_rank < 0 && (cs_procs_deadlocked() || cs_procs_retired() != prm->cfg.n)) {
    char *stuck = cs_procs_first_stuck();
    g_set_error(err, CS_INTERNAL_ERROR, 1, "mcmc %s deadlocked: %d of %lld processes finished%s%s",
                prm->balance->name, cs_procs_retired(), (long long)prm->cfg.n, stuck ? "; " : "", stuck ? stuck : "");
    g_free(stuck);
    rc = 1;
  } else {
    res->wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
    summarise(&st, procs, res);
    if (!verify(&st, res)) {
      g_set_error(err, CS_INTERNAL_ERROR, 1, "verification failed: %s", res->why);
      rc = 1;
    }
  }
  for (int64_t r = 0; r < prm->cfg.n; r++)
    cs_proc_release(&procs[r]);
  g_free(procs);
  g_free(st.run.procs);
  cs_ctxids_free(st.run.ids);
  cs_world_free(st.run.world);
  return rc;
}

void cs_mcmc_result_clear(cs_mcmc_result *r)
{
  g_free(r->why);
  g_free(r->stuck_example);
  memset(r, 0, sizeof *r);
}

enum {
  M_N, M_G, M_BALANCE, M_INTERVAL, M_CREATE, M_JITTER, M_SEED, M_VERIFIED, M_TIME, M_IDEAL, M_BASELINE,
  M_VS_BASELINE, M_REGROUPINGS_MEAN, M_REGROUPINGS_SD, M_REGROUPINGS_MIN, M_REGROUPINGS_MAX, M_ITEMS, M_MESSAGES,
  M_BYTES, M_FAIL_RANK, M_FAIL_AT, M_REBUILD, M_REBUILT_SIZE, M_DEADLOCK, M_STUCK, M_STUCK_EXAMPLE, M_DROPPED,
  M_SIM_TIME, M_PLATFORM, M_WALL,
};

static const cs_column columns[] = {
    [M_N] = {"n", CS_COL_INT, NULL, "processes", NULL, CS_COL_KEY, "processes"},
    [M_G] = {"g", CS_COL_INT, NULL, "processes", NULL, CS_COL_KEY, "group size"},
    [M_BALANCE] = {"balance", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "load-balancing mode"},
    [M_INTERVAL] = {"interval", CS_COL_INT, NULL, "steps", NULL, CS_COL_KEY,
                    "steps between regroupings (balance collective; null otherwise)"},
    [M_CREATE] = {"create", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY,
                  "communicator creation used (balance async; null otherwise)"},
    [M_JITTER] = {"jitter", CS_COL_NUM, "%g", "", NULL, CS_COL_KEY, "relative jitter of the work per step"},
    [M_SEED] = {"seed", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "random seed"},
    [M_VERIFIED] = {"verified", CS_COL_BOOL, NULL, "", NULL, 0, "the work was conserved: true or false"},
    [M_TIME] = {"time_s", CS_COL_NUM, "%.9g", "s", NULL, 0, "when the last process's work ended"},
    [M_IDEAL] = {"ideal_s", CS_COL_NUM, "%.9g", "s", NULL, 0, "the time with perfect balance and free communication"},
    [M_BASELINE] = {"baseline_s", CS_COL_NUM, "%.9g", "s", NULL, 0, "the time without balancing: the slowest walker group's items x T / its size, computed from the "
                  "workload without noise (--jitter does not change it)"},
    [M_VS_BASELINE] = {"vs_baseline", CS_COL_NUM, "%.4f", "fraction", NULL, 0,
                       "time saved against the noise-free baseline_s: 1 - time_s / baseline_s (0.49: 49 % faster; "
                       "negative: slower).  With --balance none it is 0 without noise (-0.0000: time_s summed step "
                       "by step differs in its last digits) and the noise's own cost with --jitter"},
    [M_REGROUPINGS_MEAN] = {"regroupings_mean", CS_COL_NUM, "%.4f", "regroupings", NULL, 0,
                            "regroupings per process, mean: a regrouping is a group communicator the process took part in "
                            "creating, its first group's included (0 with --balance none)"},
    [M_REGROUPINGS_SD] = {"regroupings_sd", CS_COL_NUM, "%.4f", "regroupings", NULL, 0,
                          "regroupings per process (as regroupings_mean), population standard deviation"},
    [M_REGROUPINGS_MIN] = {"regroupings_min", CS_COL_INT, NULL, "regroupings", NULL, 0,
                           "regroupings per process (as regroupings_mean), fewest"},
    [M_REGROUPINGS_MAX] = {"regroupings_max", CS_COL_INT, NULL, "regroupings", NULL, 0,
                           "regroupings per process (as regroupings_mean), most"},
    [M_ITEMS] = {"items", CS_COL_INT, NULL, "items", NULL, 0, "work items done, counted by the group leaders"},
    [M_MESSAGES] = {"messages", CS_COL_INT, NULL, "messages", NULL, 0, "messages sent"},
    [M_BYTES] = {"bytes", CS_COL_INT, NULL, "bytes", NULL, 0, "bytes sent"},
    [M_FAIL_RANK] = {"fail_rank", CS_COL_INT, NULL, "", "--fail-rank", CS_COL_KEY, "the rank that fails"},
    [M_FAIL_AT] = {"fail_at", CS_COL_NUM, "%.9g", "s", "--fail-rank", CS_COL_KEY, "when it fails"},
    [M_REBUILD] = {"rebuild", CS_COL_TEXT, NULL, "", "--fail-rank", CS_COL_KEY, "how the survivors rebuild"},
    [M_REBUILT_SIZE] = {"rebuilt_size", CS_COL_INT, NULL, "processes", "--fail-rank", 0,
                        "smallest allreduce result over the survivors (-1: none rebuilt)"},
    [M_DEADLOCK] = {"deadlock", CS_COL_BOOL, NULL, "", "--fail-rank", 0,
                    "the rebuild never completed (every survivor waiting)"},
    [M_STUCK] = {"stuck", CS_COL_INT, NULL, "processes", "--fail-rank", 0, "processes stuck in a receive"},
    [M_STUCK_EXAMPLE] = {"stuck_example", CS_COL_TEXT, NULL, "", "--fail-rank, a process stuck", 0,
                         "the first stuck rank: \"rank R waits for rank S (tag T)\""},
    [M_DROPPED] = {"dropped_sends", CS_COL_INT, NULL, "messages", "--fail-rank", 0, "sends to the failed process"},
    [M_SIM_TIME] = {"sim_time_s", CS_COL_NUM, "%.9g", "s", NULL, 0, "simulated time of the whole run"},
    [M_PLATFORM] = {"platform", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the platform's canonical spec"},
    [M_WALL] = {"wall_s", CS_COL_NUM, "%.3f", "s", NULL, CS_COL_MEASURED, "wall-clock time of the run"},
};

const cs_record_kind cs_mcmc_record_kind = {"mcmc", "one MCMC load-balancing run", columns, G_N_ELEMENTS(columns),
                                            NULL};

cs_record *cs_mcmc_result_record(const cs_mcmc_params *prm, const cs_mcmc_result *res)
{
  cs_record *r = cs_record_new();
  const cs_mcmc_config *c = &prm->cfg;
  cs_col_i64(r, &columns[M_N], c->n);
  cs_col_i64(r, &columns[M_G], c->g);
  cs_col_str(r, &columns[M_BALANCE], prm->balance->name);
  /* every mode gives every key scripts rely on: null where the mode has no such thing */
  if (prm->balance->regroups_every_interval)
    cs_col_i64(r, &columns[M_INTERVAL], c->interval);
  else
    cs_col_str(r, &columns[M_INTERVAL], NULL);
  cs_col_str(r, &columns[M_CREATE], prm->balance->creates_groups ? c->create_impl : NULL);
  cs_col_num(r, &columns[M_JITTER], c->jitter);
  cs_col_u64(r, &columns[M_SEED], c->seed);
  cs_col_bool(r, &columns[M_VERIFIED], res->verified);
  cs_col_num(r, &columns[M_TIME], res->time_s);
  cs_col_num(r, &columns[M_IDEAL], res->ideal_s);
  cs_col_num(r, &columns[M_BASELINE], res->baseline_s);
  cs_col_num(r, &columns[M_VS_BASELINE], res->baseline_s > 0 ? 1 - res->time_s / res->baseline_s : 0);
  cs_col_num(r, &columns[M_REGROUPINGS_MEAN], res->regroupings_mean);
  cs_col_num(r, &columns[M_REGROUPINGS_SD], res->regroupings_sd);
  cs_col_i64(r, &columns[M_REGROUPINGS_MIN], res->regroupings_min);
  cs_col_i64(r, &columns[M_REGROUPINGS_MAX], res->regroupings_max);
  cs_col_i64(r, &columns[M_ITEMS], res->items);
  cs_col_u64(r, &columns[M_MESSAGES], res->messages);
  cs_col_u64(r, &columns[M_BYTES], res->bytes);
  if (c->fail_rank >= 0) {
    cs_col_i64(r, &columns[M_FAIL_RANK], c->fail_rank);
    cs_col_num(r, &columns[M_FAIL_AT], c->fail_at);
    cs_col_str(r, &columns[M_REBUILD], c->rebuild);
    cs_col_i64(r, &columns[M_REBUILT_SIZE], res->rebuilt_min);
    cs_col_bool(r, &columns[M_DEADLOCK], res->deadlocked);
    cs_col_i64(r, &columns[M_STUCK], res->stuck);
    if (res->stuck_example)
      cs_col_str(r, &columns[M_STUCK_EXAMPLE], res->stuck_example);
    cs_col_u64(r, &columns[M_DROPPED], res->dropped_sends);
  }
  cs_col_num(r, &columns[M_SIM_TIME], res->sim_time_s);
  cs_col_str(r, &columns[M_PLATFORM], prm->platform_desc);
  cs_col_num(r, &columns[M_WALL], res->wall_s);
  return r;
}
