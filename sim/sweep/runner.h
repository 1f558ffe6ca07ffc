/* Running a sweep's plan (plan.h) elsewhere than in the sweep's own
 * children, and bringing its rows back (`collsim sweep --runner`,
 * `--gather`; docs/sweeps-on-clusters.md shows it in use):
 *
 *   parallel  GNU parallel runs DIR/tasks.txt: `parallel --will-cite
 *             --joblog DIR/joblog --resume-failed [-j J] [ARGS] <
 *             DIR/tasks.txt`, ARGS the --runner-arg options (e.g.
 *             --sshloginfile=FILE); the sweep follows it to its end, then
 *             gathers.  Run again (after an interruption or a failure), the
 *             same command skips the tasks the joblog records as done.
 *   slurm     DIR/job.sh, a job array of one task per line (task
 *             $SLURM_ARRAY_TASK_ID runs line ID + 1 and writes its exit
 *             status into DIR/status/ID), with --time and --mem from the
 *             largest estimate x SLURM_TIME_MARGIN (+ SLURM_TIME_FLOOR_S) and
 *             x SLURM_MEM_MARGIN unless --runner-arg gives them, and every
 *             --runner-arg as an #SBATCH line; submitted with
 *             `sbatch --parsable --array=0-N[%K] DIR/job.sh` (K: --throttle),
 *             its job ids appended to DIR/slurm-jobs.  With --wait the sweep
 *             follows it (squeue) to its end and gathers; else
 *             `collsim sweep EXP --gather DIR --out FILE` does later.
 *
 * Gathering (sweep.c's cs_sweep_gather) appends the rows of DIR/rows to the
 * output in the experiment's point order, through the checks and the
 * journal of a local sweep, so the output is the one a local sweep writes
 * (wall-clock columns aside).  Planned points without a row are reported
 * with their exit status (DIR/status, DIR/joblog) and the last lines of
 * their logs; --resubmit runs only those again (slurm: a new array of their
 * task numbers; parallel: --resume-failed).
 *
 * Bad input, refused before anything is written or submitted (exit 2): a
 * runner whose program is not installed, a --runner-arg the program does
 * not know (sbatch --help lists it; parallel --dry-run accepts it) or that
 * the runner sets itself, a plan folder of another experiment. */
#ifndef COLLSIM_RUNNER_H
#define COLLSIM_RUNNER_H

#include "sim/sweep/experiment.h"
#include "sim/sweep/plan.h"

#include <glib.h>

#define SLURM_TIME_MARGIN 3.0
#define SLURM_TIME_FLOOR_S 60.0
#define SLURM_MEM_MARGIN 1.5

typedef enum { CS_RUNNER_LOCAL, CS_RUNNER_PARALLEL, CS_RUNNER_SLURM } cs_runner_kind;

typedef struct cs_runner {
  cs_runner_kind kind;
  int jobs;              /* parallel's -j (0: its default) */
  int throttle;          /* slurm: tasks at once, the array's %K (0: no limit) */
  char *const *args;     /* --runner-arg, passed through (NULL-terminated; NULL: none) */
  gboolean wait;         /* slurm: follow the job to its end, then gather */
  gboolean quiet;        /* no progress line */
} cs_runner;

/* "local", "parallel", "slurm"; FALSE for anything else. */
gboolean cs_runner_parse(const char *name, cs_runner_kind *kind);
const char *cs_runner_name(cs_runner_kind kind);

/* The runner's program is installed and knows every --runner-arg (CS_INPUT_ERROR). */
gboolean cs_runner_check(const cs_runner *r, GError **err);

/* Run the plan's tasks (task numbers in `tasks`, NULL: all) with r.
 * parallel: to its end; slurm: submitted, then followed when r->wait.
 * Returns 0 when the runner ran or submitted them (tasks may have failed:
 * gathering tells), 2 bad input, 1 an internal failure (a message
 * printed), 128+signal when interrupted. */
int cs_runner_run(const cs_plan *p, const cs_experiment *e, const cs_runner *r, GArray *tasks);

/* How a planned point that left no row ended: "exit status 3", "killed by
 * signal 9", or NULL when nothing records it (g_free it). */
char *cs_runner_task_status(const cs_plan *p, guint task);

/* The runner that last ran the plan in dir (slurm when DIR/job.sh exists,
 * parallel when DIR/joblog does), else local. */
cs_runner_kind cs_runner_of_plan(const cs_plan *p);

#endif
