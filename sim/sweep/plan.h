/* A sweep's plan for other machines: `collsim sweep EXP --plan DIR` writes,
 * for the pending points of an experiment,
 *
 *   DIR/tasks.txt   one line per point (task i is line i + 1): a complete
 *                   shell command that runs the point as a local sweep
 *                   would (same folder, same arguments) and writes its
 *                   output to DIR/rows/POINT.csv (atomically: --out) and its
 *                   stderr to DIR/logs/POINT.log, e.g.
 *                   cd /home/u/exp && /opt/collsim/bin/collsim tree --algo=...
 *                     --format=csv --quiet --with-config --out=DIR/rows/000003.csv
 *                     2>DIR/logs/000003.log
 *   DIR/estimates   a tab-separated table, one line per task: task, point,
 *                   seconds, peak_mib, processes, point (what it is), from
 *                   sim/sweep/point_cost.h (each point planned with its own
 *                   budget, so the same experiment gives the same table)
 *   DIR/manifest    "name<TAB>value" lines: the experiment's hash (below),
 *                   name and file, collsim's version, the points and tasks
 *
 * POINT is the point's index in the experiment, six digits.  The
 * experiment's hash is 16 hex digits of SHA-256 over its name and the
 * points' resume keys in order (each point's config_key, the hash of its
 * whole argument list and collsim's version, and for generic experiments
 * its labels: sim/sweep/sweep.h), so another experiment, a changed
 * parameter or another collsim has another hash; gathering refuses a plan
 * whose hash is not the experiment's.
 *
 * Planning again into a folder that holds a plan of the same experiment
 * rewrites it (the same text when nothing was gathered since); the runners'
 * records (DIR/joblog, DIR/status) are removed when the task list changed,
 * as their task numbers would name other points.  A folder holding another
 * experiment's plan is refused before anything is written. */
#ifndef COLLSIM_PLAN_H
#define COLLSIM_PLAN_H

#include "sim/sweep/experiment.h"
#include "sim/sweep/point_cost.h"

#include <glib.h>

typedef struct cs_plan_task {
  size_t point;    /* index in the experiment */
  double seconds;  /* estimated wall time */
  double peak_mib; /* estimated peak memory */
} cs_plan_task;

typedef struct cs_plan {
  char *dir;     /* absolute */
  char *hash;    /* the experiment's */
  GArray *tasks; /* cs_plan_task, in task order */
} cs_plan;

/* The experiment's hash (g_free it). */
char *cs_experiment_hash(const cs_experiment *e);

/* Can dir hold e's plan?  It may be missing (made when written) or a folder
 * without a manifest or with e's; else CS_INPUT_ERROR naming why.  With
 * must_exist, a folder holding e's plan is required (gather). */
gboolean cs_plan_dir_check(const cs_experiment *e, const char *dir, gboolean must_exist, GError **err);

/* Write the plan of the pending points (cs_point *, with their costs) into
 * dir; exe is the collsim binary the tasks run.  NULL with err
 * (CS_INPUT_ERROR: a file that cannot be written). */
cs_plan *cs_plan_write(const cs_experiment *e, GPtrArray *pending, const cs_point_cost *costs, const char *dir,
                       const char *exe, GError **err);

/* Read e's plan back from dir (cs_plan_dir_check first). */
cs_plan *cs_plan_read(const cs_experiment *e, const char *dir, GError **err);
void cs_plan_free(cs_plan *p);

/* DIR/name (g_free it). */
char *cs_plan_file(const cs_plan *p, const char *name);
/* DIR/rows/POINT.csv and DIR/logs/POINT.log (g_free them). */
char *cs_plan_row_path(const char *dir, size_t point);
char *cs_plan_log_path(const char *dir, size_t point);
/* The task (index in p->tasks) of a point, or -1. */
long cs_plan_task_of(const cs_plan *p, size_t point);

/* The shell line of task: cd cwd, the point's command with --out=ROW, its
 * stderr into LOG (g_free it). */
char *cs_plan_task_line(const cs_experiment *e, const cs_point *p, const char *exe, const char *dir,
                        const char *cwd);

#endif
