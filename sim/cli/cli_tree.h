/* `collsim tree`, `collsim platform`: command-line front ends. */
#ifndef COLLSIM_CLI_TREE_H
#define COLLSIM_CLI_TREE_H

#include <stddef.h>

int cs_tree_main(int argc, char **argv);
int cs_platform_main(int argc, char **argv);
/* Print "collsim <cmd>: error: ..." on stderr and return 2. */
int cs_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Write `text` to path atomically (temporary file + rename). */
int cs_write_file_atomic(const char *path, const char *text, size_t len, char **errmsg);

#endif
