/* `collsim allreduce` and `collsim tree-script` (seed 002). */
#ifndef COLLSIM_CLI_ALLREDUCE_H
#define COLLSIM_CLI_ALLREDUCE_H

#include "sim/drivers/record.h"

/* The columns of collsim allreduce's records. */
extern const cs_record_kind cs_allreduce_record_kind;

int cs_allreduce_main(int argc, char **argv);
int cs_tree_script_main(int argc, char **argv);

#endif
