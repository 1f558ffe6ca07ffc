/* The run's private temporary folder: $TMPDIR/collsim-<pid>-XXXXXX, made on
 * first use, holding every temporary file of the run (generated platforms,
 * files being written before their atomic rename), and removed with its
 * content at exit, on SIGINT, SIGTERM, SIGHUP, SIGQUIT and on the fatal
 * signals (SIGABRT from a SimGrid abort, SIGSEGV, SIGBUS, SIGFPE), after
 * which the signal takes its default course.  Only the process that made
 * the folder removes it (forked children share it and leave it alone).
 *
 * SIGKILL cannot be caught: a folder whose process is gone is removed by
 * the next collsim that makes its own folder. */
#ifndef COLLSIM_TEMPDIR_H
#define COLLSIM_TEMPDIR_H

#include <glib.h>
#include <stdbool.h>

/* The folder (made now if needed); NULL with err when it cannot be made. */
const char *cs_tempdir(GError **err);

/* A new empty file in the folder named <stem>-XXXXXX<suffix>; its path
 * (g_free it).  Removing it early is the caller's choice (cs_tempfile_remove). */
char *cs_tempfile(const char *stem, const char *suffix, GError **err);
void cs_tempfile_remove(const char *path);

/* Move a finished temporary file to its destination: rename when the two
 * share a file system, else copy into a temporary file beside the
 * destination and rename that; the temporary file is removed either way.
 * FALSE with err (CS_INPUT_ERROR) when the destination cannot be written. */
bool cs_tempfile_commit(const char *tmp, const char *dest, GError **err);

/* Remove the folder now (also done at exit). */
void cs_tempdir_cleanup(void);

#endif
