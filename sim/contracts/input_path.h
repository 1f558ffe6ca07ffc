/* Input files named relative to the source tree (experiments/..., tree
 * scripts, batch files) work from any working folder.
 *
 * A relative path that does not exist from the working folder is looked up
 * in collsim's data folders, in this order: $COLLSIM_SRCDIR (when set), the
 * installed data folder (configure's pkgdatadir, where `make install` copies
 * experiments/), and the source folder collsim was built from.  A path found
 * nowhere is one error naming every place searched.
 *
 * An input file is a regular file of at most CS_INPUT_MAX_BYTES: a device
 * (/dev/zero would be read without end), a named pipe (whose open waits for
 * a writer, and whose reads may never end), a socket or a folder is refused
 * with one line naming what it is, without reading it.  The cap is 1 GiB:
 * the committed inputs are at most a few tens of KiB (experiments/,
 * results/ as compare reads them), the largest platform collsim writes for
 * a paper's machine a few MiB (percs:64,16,16: 4.7 MiB) and for far larger
 * ones about a hundred (dragonfly:65,32,16,16,4: 112 MiB, a file that may
 * come back as --platform file:PATH); a member list of 50 million
 * ranks fits.
 * The whole file is held in memory, so the cap also bounds what one read
 * costs. */
#ifndef COLLSIM_INPUT_PATH_H
#define COLLSIM_INPUT_PATH_H

#include <glib.h>
#include <stdbool.h>

/* The readable file `path` names (newly allocated; the path itself when it
 * exists as given).  NULL with err (CS_INPUT_ERROR, "WHAT: cannot read PATH:
 * ... (looked in ...)") when no place has it, or when it is a folder, not a
 * regular file, or larger than CS_INPUT_MAX_BYTES: so a front end that
 * resolves its input paths when it parses its options refuses them then. */
char *cs_input_path(const char *what, const char *path, GError **err);

/* The same for a file read as a stream (a GOAL schedule, goal.h): any
 * size. */
char *cs_input_path_stream(const char *what, const char *path, GError **err);

/* The largest input file read (1 GiB; see above). */
#define CS_INPUT_MAX_BYTES ((size_t)1 << 30)

/* Read the user's input file `path` whole: opened without waiting (a named
 * pipe does not block), refused unless what was opened is a regular file of
 * at most CS_INPUT_MAX_BYTES, then read to its end (also a file whose size
 * the system does not know, such as those of /proc, up to the cap).  text
 * is NUL-terminated (g_free it); len (may be NULL) is its length.  FALSE
 * with err (CS_INPUT_ERROR), "[WHAT ]PATH: PROBLEM", e.g. "/dev/zero: not a
 * regular file (a character device)"; `what` may be NULL. */
bool cs_read_user_file(const char *what, const char *path, char **text, size_t *len, GError **err);

/* Where `path` (a file or a folder) is: as given when it exists there or is
 * absolute, else in the first data folder that has it, else as given (so a
 * later open names it).  Newly allocated. */
char *cs_input_locate(const char *path);

/* Is `path` an existing file, as given or in a data folder? */
bool cs_input_exists(const char *path);

#endif
