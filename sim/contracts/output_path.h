/* Output files: checked before a run, written atomically after it.
 *
 * A run that fails leaves no output behind: paths are checked first (a
 * file name, not a folder or a device, in a folder where a file can really
 * be made), and files are written whole into a temporary file beside the
 * destination, then renamed.  Messages name the user's path and the
 * problem, never the temporary file. */
#ifndef COLLSIM_OUTPUT_PATH_H
#define COLLSIM_OUTPUT_PATH_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

/* Checks of an output path before a run: it names a file (not ending in
 * '/', not "." or ".."), it is not a directory nor a device, and a file can
 * be made in its folder (with make_folders: in the nearest existing folder
 * above it), which is tried: a file is made there and removed at once.
 * `what` names it in the message (CS_INPUT_ERROR). */
bool cs_check_output_path(const char *what, const char *path, bool make_folders, GError **err);

/* Write text to path atomically (temporary file in the same folder, then
 * rename), making missing folders; the temporary file never survives a
 * failure nor a signal (it is tracked by signals.h while it exists).
 * FALSE with err (CS_INPUT_ERROR, "cannot write PATH: PROBLEM"). */
bool cs_write_file_atomic(const char *path, const char *text, size_t len, GError **err);

/* The same, streamed (a file larger than memory): open makes the
 * temporary file (NULL with err as above), write appends to it (false once
 * a write failed: commit reports it), commit renames it to path (or
 * removes it and sets err), abort removes it; commit and abort free f. */
typedef struct cs_atomic_file cs_atomic_file;
cs_atomic_file *cs_atomic_open(const char *path, GError **err);
bool cs_atomic_write(cs_atomic_file *f, const char *text, size_t len);
bool cs_atomic_commit(cs_atomic_file *f, GError **err);
void cs_atomic_abort(cs_atomic_file *f);

/* err = "cannot write PATH: PROBLEM" for errno e (CS_INPUT_ERROR); FALSE. */
bool cs_output_error(GError **err, const char *path, int e);

/* Make the missing folders above path, appending each one made to `made`
 * (a GPtrArray of g_free'd strings, outermost first), so that a run which
 * ends up writing nothing there can take them away again (each is also
 * removed, when still empty, if a signal stops the run: signals.h). */
bool cs_make_parent_folders(const char *what, const char *path, GPtrArray *made, GError **err);
/* Remove the folders of `made` that are (still) empty, innermost first. */
void cs_remove_made_folders(GPtrArray *made);

#endif
