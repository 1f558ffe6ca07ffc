/* `collsim demo`: the built-in default experiment. */
#ifndef COLLSIM_DEMO_H
#define COLLSIM_DEMO_H
int cs_demo_main(int argc, char **argv);
#endif
