/* The workload of seed 004's MCMC benchmark (Section 4.2), shared by the
 * balancing modes: initial groups, chain lengths, the step with its noise,
 * the baseline and ideal times.  Rules in mcmc.h. */
#include "algorithms/mcmc/mcmc.h"
#include "sim/contracts/prng.h"

void cs_mcmc_initial_group(const cs_mcmc_config *c, int64_t r, int64_t *lo, int64_t *hi)
{
  *lo = r / c->g * c->g;
  *hi = *lo + c->g - 1 < c->n - 1 ? *lo + c->g - 1 : c->n - 1;
}

int64_t cs_mcmc_chain_items(const cs_mcmc_config *c, int64_t leader)
{
  return (int64_t)c->s_mult * (leader % c->s_mod);
}

int64_t cs_mcmc_total_items(const cs_mcmc_config *c)
{
  int64_t total = 0;
  for (int64_t lo = 0; lo < c->n; lo += c->g)
    total += cs_mcmc_chain_items(c, lo);
  return total;
}

double cs_mcmc_baseline_s(const cs_mcmc_config *c)
{
  double worst = 0;
  for (int64_t lo = 0; lo < c->n; lo += c->g) {
    int64_t size = lo + c->g <= c->n ? c->g : c->n - lo;
    double t = (double)cs_mcmc_chain_items(c, lo) * c->t_item / (double)size;
    worst = t > worst ? t : worst;
  }
  return worst;
}

double cs_mcmc_ideal_s(const cs_mcmc_config *c)
{
  return (double)cs_mcmc_total_items(c) * c->t_item / (double)c->n;
}

void cs_mcmc_step(cs_proc *p, cs_mcmc_run *run, int64_t size)
{
  const cs_mcmc_config *c = run->cfg;
  cs_mcmc_proc *me = &run->procs[cs_rank(p)];
  double noise = c->jitter > 0 ? c->jitter * (2 * cs_uniform(c->seed, (uint64_t)cs_rank(p), (uint64_t)me->steps) - 1)
                               : 0;
  cs_compute(p, c->t_item / (double)size * (1 + noise));
  me->steps++;
}

uint64_t cs_mcmc_range_key(int64_t lo, int64_t hi)
{
  return UINT64_C(1) << 63 | (uint64_t)lo << 39 | (uint64_t)hi << 22;
}

cs_wid *cs_mcmc_range(cs_proc *p, int64_t lo, int64_t hi)
{
  cs_wid *w = cs_alloc(p, sizeof(cs_wid) * (size_t)(hi - lo + 1));
  for (int64_t r = lo; r <= hi; r++)
    w[r - lo] = (cs_wid)r;
  return w;
}

void cs_mcmc_finish(cs_proc *p, cs_mcmc_run *run, int64_t lo, int64_t hi)
{
  cs_mcmc_proc *me = &run->procs[cs_rank(p)];
  me->finished_at = cs_now(p);
  me->lo = lo;
  me->hi = hi;
  me->done = true;
}
