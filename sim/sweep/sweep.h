/* `collsim sweep`: run every point of an experiment (experiment.h) as a child
 * collsim process, appending its CSV rows to the output as it finishes, and
 * skipping points already done (resume).
 *
 * Tree experiments (the seed-000 schema) recognise a done point by its key
 * columns in the output (algo, n, f, k, colors, seed, platform).  Generic
 * experiments (any subcommand) keep a journal beside the output,
 * ".NAME.journal": one line per finished point with the output's length
 * after its rows and the point's key.  On resume, rows beyond the last
 * journal line (a point cut short by a crash) are cut off and that point
 * runs again, so a row is never lost or doubled; when every point is done
 * the rows are put in the experiment's point order, whatever order they
 * finished in. */
#ifndef COLLSIM_SWEEP_H
#define COLLSIM_SWEEP_H

#include "sim/sweep/experiment.h"

#include <glib.h>

/* argv[0] is "sweep".  Exit status: 0 all points done, 1 some point failed
 * (or an internal error), 2 bad input (usage, experiment, output file, or a
 * child that reported bad input), 128+signal when interrupted. */
int cs_sweep_main(int argc, char **argv);

/* ---- pieces exposed for the unit tests (tests/check_sweep.c) ---- */

/* Fields of one CSV line (RFC 4180 quotes understood); a GPtrArray of char *. */
GPtrArray *cs_csv_split(const char *line);

/* What an existing results file holds. */
typedef struct cs_sweep_rows cs_sweep_rows;

/* Parse the content of a results file.  Empty content is fine (no rows).
 * A first line that differs from CS_TREE_CSV_HEADER is an error.  Rows with
 * the wrong number of fields or unreadable key columns are ignored (counted in
 * cs_sweep_rows_bad).  *complete_len receives the length up to the end of the
 * last complete line: more than that is a row cut by an interrupted write. */
cs_sweep_rows *cs_sweep_rows_parse(const char *text, size_t len, const char *path, size_t *complete_len,
                                   GError **err);
size_t cs_sweep_rows_count(const cs_sweep_rows *r);
size_t cs_sweep_rows_bad(const cs_sweep_rows *r);
/* Is the point (algo, n, f, k, colors, seed, platform) present?  f is
 * compared as a number (cs_same_fraction), the platform with
 * cs_sweep_platform_matches. */
gboolean cs_sweep_rows_has(const cs_sweep_rows *r, const cs_experiment *e, const cs_point *p);
/* Add one row (a CSV line without newline); FALSE if it is unusable. */
gboolean cs_sweep_rows_add(cs_sweep_rows *r, const char *line);
void cs_sweep_rows_free(cs_sweep_rows *r);

/* Does the platform column of a row belong to the experiment's platform?
 *  - torus XxYxZ with cores C: "torus:XxYxZ/C" (any cores when none is given)
 *  - torus auto: any "torus:..." (with "/C" when cores are given): the torus
 *    collsim picks depends on n only, so it cannot differ between runs
 *  - file: the same file name (basename) */
gboolean cs_sweep_platform_matches(const cs_experiment *e, const char *platform);

/* Check that the row a child printed is one well-formed line for point p.
 * Returns FALSE with a reason; *platform_only is TRUE when only the platform
 * column disagrees (the row is still worth keeping). */
gboolean cs_sweep_check_row(const char *row, const cs_experiment *e, const cs_point *p, gboolean *platform_only,
                            char **why);

/* The child's argument vector (NULL-terminated), argv[0] = exe. */
char **cs_sweep_point_argv(const cs_experiment *e, const cs_point *p, const char *exe);
/* The same as one shell-quoted line. */
char *cs_sweep_command_line(char *const *argv);

/* "I/N" with 0 <= I < N. */
gboolean cs_sweep_parse_shard(const char *s, int *index, int *count);

#endif
