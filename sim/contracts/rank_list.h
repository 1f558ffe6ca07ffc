/* Lists of ranks in a text file (the members of a group: `collsim tree
 * --members`, `collsim groupmap --members`).
 *
 * Decimal integers separated by white space (any of space, tab, newline,
 * carriage return, vertical tab, form feed) or commas; '#' starts a comment
 * that runs to the end of the line.  Each rank must lie in [0, limit) and
 * appear once.  A NUL byte, a sign, a fraction or any other text is refused
 * with a message naming the file, the line and the text (CS_INPUT_ERROR). */
#ifndef COLLSIM_RANK_LIST_H
#define COLLSIM_RANK_LIST_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* The ranks in file order (a GArray of int64_t), or NULL with err.
 * allow_empty: a file listing no rank is a list of none (else an error). */
GArray *cs_rank_list_read(const char *path, int64_t limit, bool allow_empty, GError **err);
/* The same from a text of len bytes (origin names it in messages). */
GArray *cs_rank_list_parse(const char *text, size_t len, const char *origin, int64_t limit, bool allow_empty,
                           GError **err);

#endif
