/* `collsim sweep --plan DIR [--runner parallel|slurm]` and `--gather DIR
 * [--resubmit]`: write the plan (plan.h), hand it to a runner (runner.h),
 * gather the rows it leaves (sweep.c's cs_sweep_gather) and say which
 * planned points left none, with how they ended and their last log lines. */
#include "sim/sweep/sweep.h"

#include "sim/contracts/errors.h"
#include "sim/sweep/point_cost.h"

#include <stdio.h>
#include <string.h>

#define LOG_TAIL_LINES 5

/* The last lines of a log, each indented, to stderr (nothing when empty). */
static void print_log_tail(const char *path)
{
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL) || !*g_strstrip(text)) {
    g_free(text);
    return;
  }
  char **lines = g_strsplit(text, "\n", -1);
  guint n = g_strv_length(lines), first = n > LOG_TAIL_LINES ? n - LOG_TAIL_LINES : 0;
  fprintf(stderr, "  %s%s:\n", first ? "last lines of " : "", path);
  for (guint i = first; i < n; i++)
    fprintf(stderr, "    %s\n", lines[i]);
  g_strfreev(lines);
  g_free(text);
}

/* One planned point without a row: how it ended, its logs. */
static void report_missing(const cs_plan *plan, size_t point)
{
  long task = cs_plan_task_of(plan, point);
  char *status = cs_runner_task_status(plan, (guint)task);
  fprintf(stderr, "collsim sweep: point %zu (task %ld) left no row: %s\n", point, task,
          status ? status : "no exit status recorded (cancelled, killed, or not run yet)");
  char *log = cs_plan_log_path(plan->dir, point), *slurm = g_strdup_printf("%s/logs/slurm-%ld.log", plan->dir, task);
  print_log_tail(log);
  print_log_tail(slurm);
  g_free(log);
  g_free(slurm);
  g_free(status);
}

static gint compare_uint(gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *)a, y = *(const guint *)b;
  return (x > y) - (x < y);
}

/* Gather into o->out_path and report; the task numbers of the planned
 * points still without a row go into *again (NULL: not wanted). */
static int gather_and_report(cs_experiment *e, const cs_sweep_options *o, const cs_plan *plan, GArray **again)
{
  cs_gather g;
  int status = cs_sweep_gather(e, o->out_path, plan, o->quiet, &g);
  for (guint i = 0; i < g.missing->len; i++)
    report_missing(plan, g_array_index(g.missing, size_t, i));
  size_t left = g.missing->len + g.refused->len;
  if (status == 0 && left)
    status = 1;
  if (status != 2 && (!o->quiet || left))
    fprintf(stderr, "collsim sweep %s: gathered %zu row(s) into %s from %s (%zu planned point(s) were there "
            "already); %u point(s) left no row, %u left a row refused%s\n", e->name, g.written, o->out_path,
            plan->dir, g.present, g.missing->len, g.refused->len,
            left && !o->resubmit ? " (--resubmit runs them again)" : "");
  if (again) {
    *again = g_array_new(FALSE, FALSE, sizeof(guint));
    GArray *lists[] = {g.missing, g.refused};
    for (size_t l = 0; l < G_N_ELEMENTS(lists); l++)
      for (guint i = 0; i < lists[l]->len; i++) {
        long task = cs_plan_task_of(plan, g_array_index(lists[l], size_t, i));
        guint t = (guint)task;
        if (task >= 0)
          g_array_append_val(*again, t);
      }
    g_array_sort(*again, compare_uint);
  }
  g_array_free(g.missing, TRUE);
  g_array_free(g.refused, TRUE);
  return status;
}

/* After a runner ran or submitted tasks: gather now (parallel; slurm
 * --wait) or say how to later. */
static int after_run(cs_experiment *e, const cs_sweep_options *o, const cs_runner *r, const cs_plan *plan)
{
  if (r->kind == CS_RUNNER_PARALLEL || r->wait)
    return gather_and_report(e, o, plan, NULL);
  if (r->kind == CS_RUNNER_SLURM)
    fprintf(stderr, "collsim sweep: when the job has ended, gather its rows with: collsim sweep %s --gather %s "
            "--out %s\n", e->path, plan->dir, o->out_path ? o->out_path : "FILE");
  return 0;
}

int cs_sweep_plan_run(cs_experiment *e, const cs_sweep_options *o, GPtrArray *pending, const char *exe)
{
  cs_plan_budget budget = {.per_point = TRUE, .quiet = o->quiet};
  cs_point_cost *costs = cs_point_costs_plan(e, pending, exe, &budget);
  GError *err = NULL;
  cs_plan *plan = cs_plan_write(e, pending, costs, o->plan_dir, exe, &err);
  g_free(costs);
  if (!plan) {
    fprintf(stderr, "collsim sweep: error: %s\n", err->message);
    g_error_free(err);
    return 2;
  }
  if (!o->quiet)
    fprintf(stderr, "collsim sweep %s: %u task(s) planned in %s (tasks.txt, estimates, manifest)\n", e->name,
            plan->tasks->len, plan->dir);
  int status = cs_runner_run(plan, e, &o->runner, NULL);
  if (status == 0 && o->runner.kind != CS_RUNNER_LOCAL)
    status = after_run(e, o, &o->runner, plan);
  cs_plan_free(plan);
  return status;
}

/* The runner that runs the missing points again: --runner, else the one
 * that ran the plan; checked before anything is gathered. */
static gboolean resubmit_runner(const cs_sweep_options *o, const cs_plan *plan, cs_runner *r, GError **err)
{
  *r = o->runner;
  if (r->kind == CS_RUNNER_LOCAL)
    r->kind = cs_runner_of_plan(plan);
  if (r->kind == CS_RUNNER_LOCAL)
    return cs_input_error(err, "--resubmit: %s shows no runner (no job.sh, no joblog): give --runner parallel or "
                          "slurm", plan->dir);
  return cs_runner_check(r, err);
}

int cs_sweep_gather_run(cs_experiment *e, const cs_sweep_options *o)
{
  GError *err = NULL;
  cs_runner r;
  cs_plan *plan = cs_plan_read(e, o->gather_dir, &err);
  if (plan && o->resubmit && !resubmit_runner(o, plan, &r, &err))
    g_clear_pointer(&plan, cs_plan_free);
  if (!plan) {
    fprintf(stderr, "collsim sweep: error: %s\n", err->message);
    g_error_free(err);
    return 2;
  }
  GArray *again = NULL;
  int status = gather_and_report(e, o, plan, o->resubmit ? &again : NULL);
  if (status == 1 && again && again->len) {
    if (!o->quiet)
      fprintf(stderr, "collsim sweep: running %u task(s) again with %s\n", again->len, cs_runner_name(r.kind));
    status = cs_runner_run(plan, e, &r, again);
    if (status == 0)
      status = after_run(e, o, &r, plan);
  }
  if (again)
    g_array_free(again, TRUE);
  cs_plan_free(plan);
  return status;
}
