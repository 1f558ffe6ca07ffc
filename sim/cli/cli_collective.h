/* `collsim collective`: command-line front end (seed 001). */
#ifndef COLLSIM_CLI_COLL_H
#define COLLSIM_CLI_COLL_H

int cs_collective_main(int argc, char **argv);

#endif
