/* `collsim mcmc` (sim/cli/cli_mcmc.c). */
#ifndef COLLSIM_CLI_MCMC_H
#define COLLSIM_CLI_MCMC_H

int cs_mcmc_main(int argc, char **argv);

#endif
