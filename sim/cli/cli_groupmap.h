/* `collsim groupmap` (sim/cli/cli_groupmap.c). */
#ifndef COLLSIM_CLI_GROUPMAP_H
#define COLLSIM_CLI_GROUPMAP_H

int cs_groupmap_main(int argc, char **argv);

#endif
