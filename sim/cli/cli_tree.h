/* `collsim tree` (seed 000). */
#ifndef COLLSIM_CLI_TREE_H
#define COLLSIM_CLI_TREE_H

int cs_tree_main(int argc, char **argv);

#endif
