/* `collsim sweep`: run every point of an experiment (experiment.h) as a child
 * collsim process, appending its CSV rows to the output as it finishes, and
 * skipping points already done (resume).
 *
 * Every point runs with --with-config, so every row ends with the columns
 * that name its whole configuration (sim/drivers/run_config.h), config_key last:
 * the hash of the point's normalized argument list (its parameters, the
 * sweep's own options, extra_args) and collsim's version.  That is the
 * resume key: a point is done when a row of its config_key is there, so
 * changing extra_args or any parameter makes a point pending again, while an
 * unchanged experiment skips every done point.  Rows of another
 * configuration stay in the file (told apart by config_key); an output made
 * before these columns existed is refused (its rows cannot be matched).
 *
 * Tree experiments (the seed-000 schema) find done points by the rows'
 * config_key.  Generic experiments (any subcommand) keep a journal beside
 * the output, ".NAME.journal": one line per finished point with the
 * output's length after its rows and the point's key (labels and
 * config_key).  On resume, rows beyond the last
 * journal line (a point cut short by a crash) are cut off and that point
 * runs again, so a row is never lost or doubled; when every point is done
 * the rows are put in the experiment's point order, whatever order they
 * finished in.
 *
 * A generic output is RFC 4180 CSV: label names (in the header) and label
 * values (before each row) are quoted when they hold a comma, a quote or a
 * line break, and a point's output is read as CSV records (sim/contracts/csv.h),
 * so a field may hold a line break; the header is found by the same rules
 * when the sweep resumes.  Before any point runs, the experiment is read
 * with the output options of its command, asked of the command itself
 * (sim/sweep/option_query.h), and refused if a point would be given one; a
 * label named like a column of the command's output stops the sweep at the
 * first point's header, before anything is written (exit 2). */
#ifndef COLLSIM_SWEEP_H
#define COLLSIM_SWEEP_H

#include "sim/sweep/experiment.h"
#include "sim/sweep/plan.h"
#include "sim/sweep/runner.h"

#include <glib.h>
#include <stdbool.h>

/* How to run an experiment's points (the options of `collsim sweep`, whose
 * front end is sim/cli/cli_sweep.c). */
typedef struct cs_sweep_options {
  const char *out_path; /* the results CSV; NULL only with dry_run */
  int shard_index, shard_count; /* points whose index is shard_index mod shard_count */
  int jobs;             /* points run at once */
  bool quiet;           /* no progress line */
  bool dry_run;         /* print the pending points' command lines, run nothing */
  const char *plan_dir; /* --plan DIR: write the pending points' plan there (plan.h), run it with runner */
  const char *gather_dir; /* --gather DIR: append the rows of DIR's plan to out_path (runner.h) */
  bool resubmit;        /* with gather_dir: run the planned points without a row again */
  cs_runner runner;     /* --runner, --runner-arg, --throttle, --wait (kind local: none) */
} cs_sweep_options;

/* Runs the pending points of e (a loaded experiment) into o->out_path,
 * reporting on stderr.  Exit status: 0 all points done, 1 some point
 * failed (or an internal error), 2 bad input (output file, or a child that
 * reported bad input), 128+signal when interrupted. */
int cs_sweep_run(cs_experiment *e, const cs_sweep_options *o);

/* What gathering a plan's rows did (cs_sweep_gather). */
typedef struct cs_gather {
  size_t written;  /* points whose rows were appended now */
  size_t present;  /* planned points already in the output */
  GArray *missing; /* size_t: planned points without a row file */
  GArray *refused; /* size_t: points whose row file was refused (each reported on stderr) */
} cs_gather;

/* Append to out_path the rows of the plan's row files, point by point in
 * the experiment's order, with the checks and the journal of a local
 * sweep's run (a generic output is put in point order once every point is
 * in).  g's arrays are made here (free them).  Exit status as
 * cs_sweep_run's (missing points are no error here). */
int cs_sweep_gather(cs_experiment *e, const char *out_path, const cs_plan *plan, gboolean quiet, cs_gather *g);

/* sim/sweep/cluster.c: --plan (and --runner), --gather (and --resubmit). */
int cs_sweep_plan_run(cs_experiment *e, const cs_sweep_options *o, GPtrArray *pending, const char *exe);
int cs_sweep_gather_run(cs_experiment *e, const cs_sweep_options *o);

/* ---- pieces exposed for the unit tests (tests/unit/sweep.c) ---- */


/* What an existing results file holds. */
typedef struct cs_sweep_rows cs_sweep_rows;

/* The header of a tree sweep's output: cs_tree_csv_header(), then the
 * configuration columns. */
const char *cs_sweep_tree_header(void);

/* Parse the content of a results file.  Empty content is fine (no rows).
 * A first line other than cs_sweep_tree_header() is an error (an older
 * collsim's header, without the configuration columns, says so).  Rows with
 * the wrong number of fields or no config_key are ignored (counted in
 * cs_sweep_rows_bad).  *complete_len receives the length up to the end of
 * the last complete line: more than that is a row cut by an interrupted
 * write. */
cs_sweep_rows *cs_sweep_rows_parse(const char *text, size_t len, const char *path, size_t *complete_len,
                                   GError **err);
size_t cs_sweep_rows_count(const cs_sweep_rows *r);
size_t cs_sweep_rows_bad(const cs_sweep_rows *r);
/* Is there a row of the point's config_key? */
gboolean cs_sweep_rows_has(const cs_sweep_rows *r, const cs_point *p);
/* Configurations among the rows that are no point of e (stale rows). */
size_t cs_sweep_rows_foreign(const cs_sweep_rows *r, const cs_experiment *e);
/* Add one row (a CSV line without newline); FALSE if it is unusable. */
gboolean cs_sweep_rows_add(cs_sweep_rows *r, const char *line);
void cs_sweep_rows_free(cs_sweep_rows *r);

/* Check that the row a tree point printed is one well-formed line of its
 * configuration (its config_key).  FALSE with a reason. */
gboolean cs_sweep_check_row(const char *row, const cs_point *p, char **why);

/* The same as one shell-quoted line. */
char *cs_sweep_command_line(char *const *argv);

/* "I/N" with 0 <= I < N. */
gboolean cs_sweep_parse_shard(const char *s, int *index, int *count);

#endif
