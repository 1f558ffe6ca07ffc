/* Input files named relative to the source tree (experiments/..., tree
 * scripts, batch files) work from any working folder.
 *
 * A relative path that does not exist from the working folder is looked up
 * in collsim's data folders, in this order: $COLLSIM_SRCDIR (when set), the
 * installed data folder (configure's pkgdatadir, where `make install` copies
 * experiments/), and the source folder collsim was built from.  A path found
 * nowhere is one error naming every place searched. */
#ifndef COLLSIM_INPUT_PATH_H
#define COLLSIM_INPUT_PATH_H

#include <glib.h>
#include <stdbool.h>

/* The readable file `path` names (newly allocated; the path itself when it
 * exists as given).  NULL with err (CS_INPUT_ERROR, "WHAT: cannot read PATH:
 * ... (looked in ...)") when no place has it, or when it is a folder. */
char *cs_input_path(const char *what, const char *path, GError **err);

/* Where `path` (a file or a folder) is: as given when it exists there or is
 * absolute, else in the first data folder that has it, else as given (so a
 * later open names it).  Newly allocated. */
char *cs_input_locate(const char *path);

/* Is `path` an existing file, as given or in a data folder? */
bool cs_input_exists(const char *path);

#endif
