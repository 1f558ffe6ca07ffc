/* collsim sweep EXPERIMENT.yaml --out results.csv [--quiet] [--jobs J]
 *                [--shard I/N] [--dry-run]
 *                [--plan DIR [--runner local|parallel|slurm] [--runner-arg ARG]...
 *                 [--throttle K] [--wait]]
 *                [--gather DIR [--resubmit]]
 *
 * The front end of the sweep: options, the experiment loaded with what the
 * sweep must know of the other subcommands (those that print rows, from the
 * table in commands.h, and each one's output options, asked of it:
 * sim/sweep/option_query.h), then sim/sweep/sweep.c runs the points.  What a
 * sweep does, resumes and prints is described in sim/sweep/sweep.c; plans,
 * runners and gathering in sim/sweep/plan.h and runner.h. */
#include "sim/cli/commands.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/input_path.h"
#include "sim/sweep/option_query.h"
#include "sim/sweep/sweep.h"

#include <stdio.h>
#include <string.h>

static const char *const SUMMARY_FORMAT =
    "Runs every point of EXPERIMENT.yaml (the cartesian product of its lists) as\n"
    "one run of the experiment's subcommand (collsim %s)\n"
    "and appends its CSV rows to the output, skipping points already done (an\n"
    "interrupted sweep resumes when run again).  Exit status: 0 all done, 1 some\n"
    "point failed, 2 bad input.";

static const char *const DESCRIPTION =
    "Points run in the experiment's order (its parameters' lists nested in the\n"
    "order written, the first outermost); --shard I/N keeps those whose index is\n"
    "I modulo N.  Unless --quiet, the progress line's ETA weighs each point by\n"
    "its size: every pending point is first planned (its run stops before the\n"
    "simulation and tells its processes and messages; 5 s at most), and a\n"
    "running point is followed as it goes.\n"
    "\n"
    "--plan DIR writes the pending points as DIR/tasks.txt (one shell command\n"
    "per point, writing its rows to DIR/rows/), DIR/estimates (seconds and peak\n"
    "memory per point) and DIR/manifest (the experiment's hash); --runner\n"
    "parallel runs them with GNU parallel and gathers; --runner slurm submits\n"
    "them as a job array (--wait: and gathers); --gather DIR appends the rows to\n"
    "--out in point order and names the points without one; --resubmit runs\n"
    "those again.  See docs/sweeps-on-clusters.md.\n"
    "\n"
    "Examples:\n"
    "  collsim sweep experiments/smoke.yaml --out smoke.csv\n"
    "  # GNU parallel, 8 at once on the hosts of nodes.txt:\n"
    "  collsim sweep exp.yaml --out exp.csv --plan plan --runner parallel -j 8 \\\n"
    "      --runner-arg=--sshloginfile=nodes.txt\n"
    "  # Slurm job array, 16 tasks at once, then collect:\n"
    "  collsim sweep exp.yaml --plan plan --runner slurm --throttle 16 --runner-arg=--partition=batch\n"
    "  collsim sweep exp.yaml --gather plan --out exp.csv --resubmit\n";

static const char *const RUNNERS[] = {"local", "parallel", "slurm", NULL};

/* The options that go together (and --out where it is needed); FALSE
 * with the usage status in *status. */
static bool options_agree(cs_cli *c, int *status, const char *out, bool dry_run, const char *plan,
                          const char *gather, const char *runner, const GPtrArray *runner_args, int64_t throttle,
                          bool wait, bool resubmit, int64_t jobs)
{
  const char *problem = NULL;
  bool remote = runner && strcmp(runner, "local") != 0, slurm = runner && strcmp(runner, "slurm") == 0;
  if (plan && gather)
    problem = "--plan and --gather go apart: plan (and run) first, then gather";
  else if ((plan || gather) && dry_run)
    problem = "--dry-run goes without --plan and --gather (the plan's tasks.txt lists the commands)";
  else if (runner && !plan && !(gather && resubmit))
    problem = "--runner needs --plan DIR (or --gather DIR --resubmit)";
  else if (resubmit && !gather)
    problem = "--resubmit needs --gather DIR";
  else if ((runner_args || throttle || wait) && !remote && !(gather && resubmit))
    problem = "--runner-arg, --throttle and --wait need --runner parallel or slurm";
  else if ((throttle || wait) && runner && !slurm)
    problem = "--throttle and --wait go with --runner slurm (parallel: --jobs)";
  else if (jobs && slurm)
    problem = "--jobs does not go with --runner slurm (use --throttle K)";
  else if (!out && !dry_run && !(plan && (!remote || (slurm && !wait))))
    problem = gather ? "--gather needs --out FILE"
              : plan   ? "--runner parallel and slurm --wait need --out FILE (the rows are gathered there)"
                       : "--out FILE is required";
  if (problem)
    *status = cs_cli_usage(c, "%s", problem);
  return problem == NULL;
}

/* The experiment named on the command line, checked and loaded; NULL with
 * the exit status in *status. */
static cs_experiment *load_experiment(cs_cli *c, const char *const *commands, int *status)
{
  GError *err = NULL;
  cs_experiment_host host = {.commands = commands, .outputs = cs_option_query_for_experiment};
  char *path = cs_input_path("experiment", c->rest[0], &err);
  if (path && !cs_cli_input_not_output(c, "the experiment", path, &err))
    g_clear_pointer(&path, g_free);
  cs_experiment *e = path ? cs_experiment_load(path, &host, &err) : NULL;
  g_free(path);
  if (!e) {
    fprintf(stderr, "collsim sweep: error: %s\n", err->message);
    *status = cs_exit_status(err);
    g_error_free(err);
  }
  return e;
}

int cs_sweep_main(int argc, char **argv)
{
  char *out_path = NULL, *shard = NULL, *plan_dir = NULL, *gather_dir = NULL, *runner = NULL;
  GPtrArray *runner_args = NULL;
  bool quiet = false, dry_run = false, wait = false, resubmit = false;
  int64_t jobs = 0, throttle = 0;
  const cs_opt opts[] = {
      {"out", 'o', CS_OPT_PATH_OUT, &out_path, "FILE", "results CSV (appended to; required unless --dry-run)", 0, 0,
       0, 0, NULL},
      {"quiet", 'q', CS_OPT_FLAG, &quiet, NULL, "no progress line", 0, 0, 0, 0, NULL},
      {"jobs", 'j', CS_OPT_INT, &jobs, "J", "points run at once (default 1)", 1, 1024, 0, 0, NULL},
      {"shard", 0, CS_OPT_STRING, &shard, "I/N", "only points whose index is I modulo N", 0, 0, 0, 0, NULL},
      {"dry-run", 0, CS_OPT_FLAG, &dry_run, NULL, "print the pending points' command lines, run nothing", 0, 0, 0,
       0, NULL},
      {"plan", 0, CS_OPT_STRING, &plan_dir, "DIR", "write the pending points' tasks, estimates and manifest to DIR",
       0, 0, 0, 0, NULL},
      {"runner", 0, CS_OPT_CHOICE, &runner, "NAME", "with --plan: local (write the plan only), parallel (GNU "
       "parallel) or slurm (a job array)", 0, 0, 0, 0, RUNNERS},
      {"runner-arg", 0, CS_OPT_LIST, &runner_args, "ARG", "an option for parallel or sbatch, e.g. "
       "--runner-arg=--partition=batch (repeatable)", 0, 0, 0, 0, NULL},
      {"throttle", 0, CS_OPT_INT, &throttle, "K", "slurm: at most K array tasks at once", 1, 1000000, 0, 0, NULL},
      {"wait", 0, CS_OPT_FLAG, &wait, NULL, "slurm: follow the job to its end, then gather", 0, 0, 0, 0, NULL},
      {"gather", 0, CS_OPT_STRING, &gather_dir, "DIR", "append the rows of DIR's plan to --out, name the points "
       "without one", 0, 0, 0, 0, NULL},
      {"resubmit", 0, CS_OPT_FLAG, &resubmit, NULL, "with --gather: run the points without a row again", 0, 0, 0, 0,
       NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  const char **commands = cs_command_names(CS_CMD_ROWS);
  char *listed = g_strjoinv(", ", (char **)commands);
  char *summary = g_strdup_printf(SUMMARY_FORMAT, listed);
  g_free(listed);
  cs_cli c;
  int status = cs_cli_parse(&c, "sweep", 0, opts, "EXPERIMENT.yaml", summary, DESCRIPTION, argc, argv);
  g_free(summary);
  cs_sweep_options o = {.shard_index = 0, .shard_count = 1};
  cs_experiment *e = NULL;
  if (status != 0)
    goto done;
  if (g_strv_length(c.rest) != 1) {
    status = cs_cli_usage(&c, "expected one EXPERIMENT.yaml, got %u argument(s)", g_strv_length(c.rest));
    goto done;
  }
  if (!options_agree(&c, &status, out_path, dry_run, plan_dir, gather_dir, runner, runner_args, throttle, wait,
                     resubmit, jobs))
    goto done;
  if (shard && !cs_sweep_parse_shard(shard, &o.shard_index, &o.shard_count)) {
    status = cs_cli_usage(&c, "--shard '%s': expected I/N with 0 <= I < N, e.g. 0/4", shard);
    goto done;
  }
  e = load_experiment(&c, commands, &status);
  if (!e)
    goto done;
  o.out_path = out_path;
  o.jobs = jobs > 0 ? (int)jobs : 1;
  o.plan_dir = plan_dir;
  o.gather_dir = gather_dir;
  o.resubmit = resubmit;
  if (runner)
    cs_runner_parse(runner, &o.runner.kind);
  o.runner.jobs = (int)jobs;
  o.runner.throttle = (int)throttle;
  o.runner.args = runner_args ? cs_strv_view(runner_args) : NULL;
  o.runner.wait = wait;
  o.runner.quiet = quiet;
  o.quiet = quiet;
  o.dry_run = dry_run;
  status = cs_sweep_run(e, &o);
done:
  g_free((char **)o.runner.args);
  cs_experiment_free(e);
  g_free(commands);
  cs_cli_free(&c);
  return status;
}
