/* Seed 004, Section 4.2, "none": no load balancing.  Every walker group
 * works through its own chain and stops; the run lasts as long as the
 * longest chain, S_max x T / G (the paper's 7 s).  The steps need no
 * communication, so no communicator is created and no message sent. */
#include "algorithms/mcmc/mcmc.h"

static void none_main(cs_proc *p, cs_mcmc_run *run)
{
  cs_mcmc_proc *me = &run->procs[cs_rank(p)];
  cs_mcmc_initial_group(run->cfg, cs_rank(p), &me->lo, &me->hi);
  int64_t items = cs_mcmc_chain_items(run->cfg, me->lo), size = me->hi - me->lo + 1;
  for (int64_t i = 0; i < items; i++)
    cs_mcmc_step(p, run, size);
  if (cs_rank(p) == me->lo)
    me->items_led = items;
  cs_mcmc_finish(p, run, me->lo, me->hi);
  cs_mcmc_recover(p, run);
}

const cs_mcmc_balance cs_mcmc_balance_none = {
    .name = "none",
    .description = "no regrouping: each walker group works through its own chain (the baseline)",
    .run = none_main,
    .silent = true,
};
