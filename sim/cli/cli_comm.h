/* `collsim comm`: communicator creation on [C,P,M] systems (seed 003). */
#ifndef COLLSIM_CLI_COMM_H
#define COLLSIM_CLI_COMM_H

int cs_comm_main(int argc, char **argv);

#endif
