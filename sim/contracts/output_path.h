/* Output files: checked before a run, written atomically after it.
 *
 * A run that fails leaves no output behind: paths are checked first (a
 * writable folder, not a directory, not a device), and files are written
 * whole into a temporary file beside the destination, then renamed. */
#ifndef COLLSIM_OUTPUT_PATH_H
#define COLLSIM_OUTPUT_PATH_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

/* Checks of an output path before a run: its folder exists (or, with
 * make_folders, the nearest existing folder above it) and is writable, the
 * path is not a directory, not a device.  `what` names it in the message
 * (CS_INPUT_ERROR). */
bool cs_check_output_path(const char *what, const char *path, bool make_folders, GError **err);

/* Write text to path atomically (temporary file in the same folder, then
 * rename), making missing folders; the temporary file never survives a
 * failure. */
bool cs_write_file_atomic(const char *path, const char *text, size_t len, GError **err);

/* Make the missing folders above path, appending each one made to `made`
 * (a GPtrArray of g_free'd strings, outermost first), so that a run which
 * ends up writing nothing there can take them away again. */
bool cs_make_parent_folders(const char *what, const char *path, GPtrArray *made, GError **err);
/* Remove the folders of `made` that are (still) empty, innermost first. */
void cs_remove_made_folders(GPtrArray *made);

#endif
