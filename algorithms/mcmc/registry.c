/* The balancing modes of the MCMC benchmark (seed 004, Section 4.2): one
 * line each (name, description, entry point); `collsim mcmc --list`
 * prints this table. */
#include "algorithms/mcmc/mcmc.h"

#include <string.h>

extern const cs_mcmc_balance cs_mcmc_balance_none;
extern const cs_mcmc_balance cs_mcmc_balance_async;
extern const cs_mcmc_balance cs_mcmc_balance_collective;

static const cs_mcmc_balance *const modes[] = {
    &cs_mcmc_balance_none,
    &cs_mcmc_balance_async,
    &cs_mcmc_balance_collective,
};

size_t cs_mcmc_balance_count(void) { return G_N_ELEMENTS(modes); }

const cs_mcmc_balance *cs_mcmc_balance_at(size_t i) { return i < G_N_ELEMENTS(modes) ? modes[i] : NULL; }

const cs_mcmc_balance *cs_mcmc_balance_find(const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS(modes); i++)
    if (strcmp(modes[i]->name, name) == 0)
      return modes[i];
  return NULL;
}
