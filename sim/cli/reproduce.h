/* `collsim reproduce TARGET`: regenerate a paper's tables and figures. */
#ifndef COLLSIM_REPRODUCE_H
#define COLLSIM_REPRODUCE_H

int cs_reproduce_main(int argc, char **argv);

#endif
