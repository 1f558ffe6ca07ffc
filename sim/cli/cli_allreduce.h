/* `collsim allreduce` and `collsim tree-script` (seed 002). */
#ifndef COLLSIM_CLI_ALLREDUCE_H
#define COLLSIM_CLI_ALLREDUCE_H

int cs_allreduce_main(int argc, char **argv);
int cs_tree_script_main(int argc, char **argv);

#endif
