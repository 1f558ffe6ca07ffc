/* collsim sweep EXPERIMENT.yaml --out results.csv [--quiet] [--jobs J]
 *                [--shard I/N] [--dry-run]
 *
 * The front end of the sweep: options, the experiment loaded with what the
 * sweep must know of the other subcommands (those that print rows, from the
 * table in commands.h, and each one's output options, asked of it:
 * sim/sweep/option_query.h), then sim/sweep/sweep.c runs the points.  What a
 * sweep does, resumes and prints is described in sim/sweep/sweep.c. */
#include "sim/cli/commands.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/input_path.h"
#include "sim/sweep/option_query.h"
#include "sim/sweep/sweep.h"

#include <stdio.h>

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
    "Examples:\n"
    "  collsim sweep experiments/smoke.yaml --out smoke.csv\n"
    "  # Slurm job array of 16 shards, then merge with one header:\n"
    "  collsim sweep exp.yaml --quiet --shard $SLURM_ARRAY_TASK_ID/16 --out exp.$SLURM_ARRAY_TASK_ID.csv\n"
    "  awk 'FNR > 1 || NR == 1' exp.*.csv > exp.csv\n"
    "  # GNU parallel (exp.csv must already hold the header):\n"
    "  collsim sweep exp.yaml --out exp.csv --dry-run | parallel -j 8 >> exp.csv\n";


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
  char *out_path = NULL, *shard = NULL;
  bool quiet = false, dry_run = false;
  int64_t jobs = 1;
  const cs_opt opts[] = {
      {"out", 'o', CS_OPT_PATH_OUT, &out_path, "FILE", "results CSV (appended to; required unless --dry-run)", 0, 0,
       0, 0, NULL},
      {"quiet", 'q', CS_OPT_FLAG, &quiet, NULL, "no progress line", 0, 0, 0, 0, NULL},
      {"jobs", 'j', CS_OPT_INT, &jobs, "J", "points run at once (default 1)", 1, 1024, 0, 0, NULL},
      {"shard", 0, CS_OPT_STRING, &shard, "I/N", "only points whose index is I modulo N", 0, 0, 0, 0, NULL},
      {"dry-run", 0, CS_OPT_FLAG, &dry_run, NULL, "print the pending points' command lines, run nothing", 0, 0, 0,
       0, NULL},
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
  if (!out_path && !dry_run) {
    status = cs_cli_usage(&c, "--out FILE is required");
    goto done;
  }
  if (shard && !cs_sweep_parse_shard(shard, &o.shard_index, &o.shard_count)) {
    status = cs_cli_usage(&c, "--shard '%s': expected I/N with 0 <= I < N, e.g. 0/4", shard);
    goto done;
  }
  e = load_experiment(&c, commands, &status);
  if (!e)
    goto done;
  o.out_path = out_path;
  o.jobs = (int)jobs;
  o.quiet = quiet;
  o.dry_run = dry_run;
  status = cs_sweep_run(e, &o);
done:
  cs_experiment_free(e);
  g_free(commands);
  cs_cli_free(&c);
  return status;
}
