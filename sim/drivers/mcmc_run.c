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
  res->deadlocked = cs_engine_deadlocked();
  int count = 0;
  const cs_stuck *stuck = cs_engine_stuck(&count);
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
  res->sim_time_s = cs_engine_clock();
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
  if (!res->why && strcmp(prm->balance->name, "none") == 0 && res->messages > 0)
    res->why = g_strdup_printf("the none mode sent %llu messages", (unsigned long long)res->messages);
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
  if (!cs_engine_run(&ec, procs, process_main, &st, err))
    rc = err && *err && (*err)->domain == CS_INPUT_ERROR ? 2 : 1;
  else if (prm->cfg.fail_rank < 0 && (cs_engine_deadlocked() || cs_engine_retired() != prm->cfg.n)) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "mcmc %s deadlocked: %d of %lld processes finished",
                prm->balance->name, cs_engine_retired(), (long long)prm->cfg.n);
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

const char *const cs_mcmc_csv_columns[] = {
    "n", "g", "balance", "interval", "create", "jitter", "seed", "verified", "time_s", "ideal_s", "baseline_s",
    "vs_baseline", "regroupings_mean", "regroupings_sd", "regroupings_min", "regroupings_max", "items", "messages",
    "bytes", "fail_rank", "fail_at", "rebuild", "rebuilt_size", "deadlock", "stuck", "stuck_example",
    "dropped_sends", "sim_time_s", "platform", "wall_s", NULL};

cs_record *cs_mcmc_result_record(const cs_mcmc_params *prm, const cs_mcmc_result *res)
{
  cs_record *r = cs_record_new();
  const cs_mcmc_config *c = &prm->cfg;
  cs_rec_i64(r, "n", c->n);
  cs_rec_i64(r, "g", c->g);
  cs_rec_str(r, "balance", prm->balance->name);
  /* every mode gives every key scripts rely on: null where the mode has no such thing */
  if (strcmp(prm->balance->name, "collective") == 0)
    cs_rec_i64(r, "interval", c->interval);
  else
    cs_rec_str(r, "interval", NULL);
  cs_rec_str(r, "create", strcmp(prm->balance->name, "async") == 0 ? c->create_impl : NULL);
  cs_rec_num(r, "jitter", c->jitter, "%g");
  cs_rec_u64(r, "seed", c->seed);
  cs_rec_verdict(r, "verified", res->verified ? "yes" : "no", res->verified);
  cs_rec_num(r, "time_s", res->time_s, "%.9g");
  cs_rec_num(r, "ideal_s", res->ideal_s, "%.9g");
  cs_rec_num(r, "baseline_s", res->baseline_s, "%.9g");
  cs_rec_num(r, "vs_baseline", res->baseline_s > 0 ? 1 - res->time_s / res->baseline_s : 0, "%.4f");
  cs_rec_num(r, "regroupings_mean", res->regroupings_mean, "%.4f");
  cs_rec_num(r, "regroupings_sd", res->regroupings_sd, "%.4f");
  cs_rec_i64(r, "regroupings_min", res->regroupings_min);
  cs_rec_i64(r, "regroupings_max", res->regroupings_max);
  cs_rec_i64(r, "items", res->items);
  cs_rec_u64(r, "messages", res->messages);
  cs_rec_u64(r, "bytes", res->bytes);
  if (c->fail_rank >= 0) {
    cs_rec_i64(r, "fail_rank", c->fail_rank);
    cs_rec_num(r, "fail_at", c->fail_at, "%.9g");
    cs_rec_str(r, "rebuild", c->rebuild);
    cs_rec_i64(r, "rebuilt_size", res->rebuilt_min);
    cs_rec_bool(r, "deadlock", res->deadlocked);
    cs_rec_i64(r, "stuck", res->stuck);
    if (res->stuck_example)
      cs_rec_str(r, "stuck_example", res->stuck_example);
    cs_rec_u64(r, "dropped_sends", res->dropped_sends);
  }
  cs_rec_num(r, "sim_time_s", res->sim_time_s, "%.9g");
  cs_rec_str(r, "platform", prm->platform_desc);
  cs_rec_num(r, "wall_s", res->wall_s, "%.3f");
  return r;
}
