/* `collsim platform`: list the platform families, or write one platform as
 * SimGrid XML. */
#ifndef COLLSIM_CLI_PLATFORM_H
#define COLLSIM_CLI_PLATFORM_H

int cs_platform_main(int argc, char **argv);

#endif
