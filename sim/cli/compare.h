/* Row-by-row comparison of CSV results: what a reproduction made (NOW)
 * beside the committed files (COMMITTED).  Used by `collsim reproduce`
 * after every target, and on its own as `collsim compare`.
 *
 * Columns:
 *  - ignored: what is measured on this machine, not simulated: wall_s, any
 *    column whose name contains "_wall" or starts with "wall", and the
 *    host-timed columns of `collsim groupmap` (create_ms, select_all_ms,
 *    select_one_us); plus any named in opts->ignore.
 *  - key: the configuration columns, which name a run (the options it was
 *    given: algo, n, f, k, seed, platform, coll, impl, cpm, balance, ...;
 *    cs_compare_key_columns()), or those of opts->key.  Rows are matched on
 *    the key columns both headers have; rows with the same key are matched
 *    in file order.  A file with none of them is matched by row number.
 *  - compared: every other column both headers have.  Two values are the
 *    same when their text is, or both are numbers within opts->tolerance
 *    (relative; 0: equal).
 *
 * A row of NOW is "same", "differs" (some compared column differs; the
 * columns are named with both values) or "only here" (no committed row
 * with its key); committed rows left over are "only committed", which is
 * expected when opts->subset (a --quick reproduction recomputes a subset).
 * Whatever makes a difference, the comparison notices it: a changed key
 * column shows as a row only here.
 *
 * Files are read strictly (RFC 4180, sim/contracts/csv.h): a ragged row, an
 * unterminated quoted field, a quote inside an unquoted field, a binary
 * file (NUL bytes, not UTF-8) or an empty header is bad input
 * (CS_INPUT_ERROR, "FILE:LINE: ..."), never a match.  CRLF line endings and
 * a missing final newline are fine.
 *
 * Folders: every NOW/NAME.csv (not hidden) against COMMITTED/NAME.csv; a
 * file with no committed counterpart is listed, not compared; committed
 * CSV files that NOW lacks are listed as not made.
 *
 * The verdict (cs_compare_ok) is a match when no row differs, no row is
 * only here, both headers have the same compared columns and, unless
 * subset, no committed row is left over. */
#ifndef COLLSIM_COMPARE_H
#define COLLSIM_COMPARE_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct cs_compare_opts {
  char **key;       /* configuration columns (NULL-terminated); NULL: cs_compare_key_columns */
  char **ignore;    /* more columns to leave out (NULL-terminated, may be NULL) */
  double tolerance; /* relative difference allowed between two numbers */
  bool subset;      /* NOW recomputes a subset: committed rows not made are expected */
} cs_compare_opts;

typedef struct cs_compare_totals {
  size_t files;         /* files compared */
  size_t same, differ, only_now, only_committed;
  size_t columns_differ; /* files whose compared columns differ */
  size_t not_committed; /* files made with no committed counterpart */
  size_t not_made;      /* committed files not made */
  GHashTable *columns;  /* when not NULL: every column name of the files read is added */
} cs_compare_totals;

/* The built-in configuration columns (NULL-terminated): every key column
 * the record kinds declare, and those of files no record writes. */
const char *const *cs_compare_key_columns(void);

/* Compare one committed file with NOW's; appends the report on `name` to
 * report and adds to t.  False (CS_INPUT_ERROR) when a file cannot be read. */
bool cs_compare_files(const char *name, const char *committed, const char *now, const cs_compare_opts *o,
                      cs_compare_totals *t, GString *report, GError **err);
/* Every CSV of now_dir against committed_dir (see above). */
bool cs_compare_dirs(const char *committed_dir, const char *now_dir, const cs_compare_opts *o,
                     cs_compare_totals *t, GString *report, GError **err);
/* Does everything made match (see above)? */
bool cs_compare_ok(const cs_compare_totals *t, const cs_compare_opts *o);
/* The closing line: totals and verdict. */
void cs_compare_summary(const cs_compare_totals *t, const cs_compare_opts *o, GString *report);

/* The visible regular files of a folder whose names start with prefix and
 * end with suffix, sorted (empty when the folder cannot be read). */
GPtrArray *cs_list_files(const char *dir, const char *prefix, const char *suffix);
/* strcmp for g_ptr_array_sort of a GPtrArray of char *. */
gint cs_compare_by_name(gconstpointer a, gconstpointer b);


#endif
