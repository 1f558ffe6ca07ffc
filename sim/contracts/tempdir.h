/* The run's private temporary folder: $TMPDIR/collsim-<pid>-XXXXXX, made on
 * first use, holding every temporary file of the run (generated platforms,
 * files being written before their atomic rename), and removed with its
 * content at exit, on SIGINT, SIGTERM, SIGHUP, SIGQUIT and on the fatal
 * signals (signals.h: the folder and its files are tracked there).  Only the
 * process that made the folder removes it (forked children share it and
 * leave it alone).
 *
 * SIGKILL cannot be caught: a folder whose process is gone is removed by
 * the next collsim that makes its own folder.
 *
 * TMPDIR is the user's environment: main() checks it once, before any
 * subcommand runs (cs_tempdir_check), so every subcommand refuses an
 * unusable one alike (exit status 2, one line naming TMPDIR), whether or
 * not it would have needed a temporary file. */
#ifndef COLLSIM_TEMPDIR_H
#define COLLSIM_TEMPDIR_H

#include <glib.h>
#include <stdbool.h>

/* The longest temporary folder path accepted (characters): our own names
 * inside it must still fit in a path. */
#define CS_TMPDIR_MAX 1024

/* Is the temporary folder ($TMPDIR, or /tmp when TMPDIR is unset or empty)
 * usable: at most CS_TMPDIR_MAX characters, an existing folder, one in
 * which a folder can really be made (tried, then removed: this catches
 * read-only and virtual file systems such as /proc, and a folder root may
 * not write in)?  FALSE with err (CS_INPUT_ERROR), "TMPDIR=VALUE: PROBLEM". */
bool cs_tempdir_check(GError **err);

/* cs_tempdir_check for subcommand cmd, main()'s way: FALSE after printing
 * "collsim CMD: error: TMPDIR=...: PROBLEM" (the caller exits 2). */
bool cs_tempdir_usable(const char *cmd);

/* Has this process made its temporary folder (cs_tempdir)? */
bool cs_tempdir_made(void);

/* The folder (made now if needed); NULL with err (CS_INPUT_ERROR, naming
 * TMPDIR) when it cannot be made. */
const char *cs_tempdir(GError **err);

/* A new empty file in the folder named <stem>-XXXXXX<suffix>; its path
 * (g_free it).  Removing it early is the caller's choice (cs_tempfile_remove). */
char *cs_tempfile(const char *stem, const char *suffix, GError **err);
void cs_tempfile_remove(const char *path);

/* Move a finished temporary file to its destination: rename when the two
 * share a file system, else write its content to the destination
 * atomically (cs_write_file_atomic); the temporary file is removed either
 * way.  FALSE with err (CS_INPUT_ERROR, "cannot write DEST: PROBLEM",
 * never the temporary file's name) when the destination cannot be written. */
bool cs_tempfile_commit(const char *tmp, const char *dest, GError **err);

/* Remove the folder now (also done at exit), with everything else this
 * process tracks for removal (signals.h). */
void cs_tempdir_cleanup(void);

#endif
