/* Running a sweep's plan with GNU parallel or a Slurm job array: see runner.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sim/sweep/runner.h"

#include "sim/contracts/errors.h"
#include "sim/contracts/output_path.h"
#include "sim/contracts/progress.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define POLL_US 250000           /* progress and child checks */
#define SQUEUE_EVERY_US 2000000  /* how often squeue is asked */

static const char *const RUNNER_NAMES[] = {"local", "parallel", "slurm"};

gboolean cs_runner_parse(const char *name, cs_runner_kind *kind)
{
  for (size_t i = 0; i < G_N_ELEMENTS(RUNNER_NAMES); i++)
    if (name && strcmp(name, RUNNER_NAMES[i]) == 0) {
      *kind = (cs_runner_kind)i;
      return TRUE;
    }
  return FALSE;
}

const char *cs_runner_name(cs_runner_kind kind) { return RUNNER_NAMES[kind]; }

/* ------------------------------------------------------------- checks ---- */

/* Options each runner sets itself: a --runner-arg may not give them. */
static const char *const SLURM_OWN[] = {"array", "output", "error", "parsable", "wait", "a", "o", "e", "W", NULL};
static const char *const PARALLEL_OWN[] = {"joblog", "resume", "resume-failed", "jobs", "j", "P", NULL};

/* "name" of "--name=value" / "--name", "x" of "-x..." (g_free it); NULL for a value. */
static char *option_name(const char *arg)
{
  if (g_str_has_prefix(arg, "--") && arg[2])
    return g_strndup(arg + 2, strcspn(arg + 2, "="));
  if (arg[0] == '-' && arg[1])
    return g_strndup(arg + 1, 1);
  return NULL;
}

static gboolean in_list(const char *const *list, const char *name)
{
  for (size_t i = 0; list[i]; i++)
    if (strcmp(list[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* Is the option (long or one letter) in `sbatch --help`'s text? */
static gboolean help_lists(const char *help, const char *name)
{
  char *needle = strlen(name) == 1 ? g_strdup_printf(" -%s,", name) : g_strdup_printf("--%s", name);
  gboolean found = FALSE;
  for (const char *at = help; !found && (at = strstr(at, needle)); at += strlen(needle)) {
    char next = at[strlen(needle)];
    found = strlen(name) == 1 || !(g_ascii_isalnum(next) || next == '-' || next == '_');
  }
  g_free(needle);
  return found;
}

/* The program's output (stdout then stderr) and exit status; FALSE if it
 * could not be run. */
static gboolean run_capture(char **argv, char **out, char **errtext, int *status)
{
  GError *e = NULL;
  gboolean ok = g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL, NULL, NULL, out,
                             errtext, status, &e);
  if (!ok)
    g_error_free(e);
  return ok;
}

/* The first line of a program's messages (g_free it). */
static char *first_line(const char *a, const char *b)
{
  const char *text = a && *g_strchug((char *)a) ? a : b && *b ? b : "no message";
  return g_strndup(text, strcspn(text, "\n"));
}

static gboolean check_slurm_args(char *const *args, GError **err)
{
  char *argv[] = {"sbatch", "--help", NULL}, *help = NULL, *errtext = NULL;
  int status = 0;
  gboolean ok = run_capture(argv, &help, &errtext, &status);
  if (!ok)
    return cs_input_error(err, "cannot run sbatch --help to check the --runner-arg options");
  for (size_t i = 0; ok && args && args[i]; i++) {
    char *name = option_name(args[i]);
    if (name && in_list(SLURM_OWN, name))
      ok = cs_input_error(err, "--runner-arg=%s: the slurm runner sets --%s itself", args[i], name);
    else if (name && !help_lists(help, name))
      ok = cs_input_error(err, "--runner-arg=%s: sbatch has no option %s%s (see sbatch --help)", args[i],
                          strlen(name) == 1 ? "-" : "--", name);
    g_free(name);
  }
  g_free(help);
  g_free(errtext);
  return ok;
}

/* parallel --dry-run with the options: it refuses an unknown one, an
 * unreadable --sshloginfile. */
static gboolean check_parallel_args(char *const *args, GError **err)
{
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, "parallel");
  g_ptr_array_add(argv, "--will-cite");
  g_ptr_array_add(argv, "--dry-run");
  for (size_t i = 0; args && args[i]; i++) {
    char *name = option_name(args[i]);
    gboolean own = name && in_list(PARALLEL_OWN, name);
    g_free(name);
    if (own) {
      g_ptr_array_free(argv, TRUE);
      return cs_input_error(err, "--runner-arg=%s: the parallel runner sets it itself (-j: use --jobs)", args[i]);
    }
    g_ptr_array_add(argv, args[i]);
  }
  const char *tail[] = {"true", ":::", "x", NULL};
  for (size_t i = 0; i < G_N_ELEMENTS(tail); i++)
    g_ptr_array_add(argv, (gpointer)tail[i]);
  char *out = NULL, *errtext = NULL;
  int status = 0;
  gboolean ran = run_capture((char **)argv->pdata, &out, &errtext, &status), ok = TRUE;
  if (!ran || !g_spawn_check_wait_status(status, NULL)) {
    const char *unknown = out ? strstr(out, "Unknown option") : NULL;
    char *why = unknown ? first_line(unknown, NULL) : first_line(errtext, NULL);
    ok = cs_input_error(err, "GNU parallel refuses the --runner-arg options: %s", why);
    g_free(why);
  }
  g_free(out);
  g_free(errtext);
  g_ptr_array_free(argv, TRUE);
  return ok;
}

static gboolean installed(const char *program)
{
  char *found = g_find_program_in_path(program);
  g_free(found);
  return found != NULL;
}

gboolean cs_runner_check(const cs_runner *r, GError **err)
{
  if (r->kind == CS_RUNNER_LOCAL)
    return !r->args || !r->args[0] || cs_input_error(err, "--runner-arg needs --runner parallel or slurm");
  const char *program = r->kind == CS_RUNNER_SLURM ? "sbatch" : "parallel";
  if (!installed(program))
    return cs_input_error(err, "--runner %s: %s is not installed (not in PATH)", cs_runner_name(r->kind), program);
  if (r->kind == CS_RUNNER_SLURM && r->wait && !installed("squeue"))
    return cs_input_error(err, "--runner slurm --wait: squeue is not installed (not in PATH)");
  return r->kind == CS_RUNNER_SLURM ? check_slurm_args(r->args, err) : check_parallel_args(r->args, err);
}

/* ------------------------------------------------------------ signals ---- */

static volatile sig_atomic_t runner_signal;

static void on_signal(int sig) { runner_signal = sig; }

typedef struct saved_signals {
  struct sigaction sa[3];
} saved_signals;

static const int CAUGHT[] = {SIGINT, SIGTERM, SIGHUP};

static void catch_signals(saved_signals *s)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  runner_signal = 0;
  for (size_t i = 0; i < G_N_ELEMENTS(CAUGHT); i++)
    sigaction(CAUGHT[i], &sa, &s->sa[i]);
}

static void restore_signals(const saved_signals *s)
{
  for (size_t i = 0; i < G_N_ELEMENTS(CAUGHT); i++)
    sigaction(CAUGHT[i], &s->sa[i], NULL);
}

/* ----------------------------------------------------------- progress ---- */

/* Tasks whose row file is there, and their estimated seconds. */
static size_t rows_done(const cs_plan *p, double *weight)
{
  size_t done = 0;
  *weight = 0;
  for (guint i = 0; i < p->tasks->len; i++) {
    const cs_plan_task *t = &g_array_index(p->tasks, cs_plan_task, i);
    char *row = cs_plan_row_path(p->dir, t->point);
    if (g_file_test(row, G_FILE_TEST_EXISTS)) {
      done++;
      *weight += t->seconds;
    }
    g_free(row);
  }
  return done;
}

static cs_progress *follow_new(const cs_plan *p, const cs_experiment *e, const char *what, gboolean quiet)
{
  double total = 0;
  for (guint i = 0; i < p->tasks->len; i++)
    total += g_array_index(p->tasks, cs_plan_task, i).seconds;
  char *label = g_strdup_printf("%s (%s)", e->name, what);
  cs_progress *line = cs_progress_new(stderr, label, p->tasks->len, total, quiet);
  g_free(label);
  return line;
}

static void follow_update(cs_progress *line, const cs_plan *p)
{
  double weight;
  size_t done = rows_done(p, &weight);
  cs_progress_set(line, done, weight);
  cs_progress_tick(line);
}

/* ----------------------------------------------------------- parallel ---- */

/* Start parallel on DIR/tasks.txt; its pid, or -1 with a message. */
static pid_t start_parallel(const cs_plan *p, const cs_runner *r)
{
  char *tasks = cs_plan_file(p, "tasks.txt"), *joblog = cs_plan_file(p, "joblog");
  GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(argv, g_strdup("parallel"));
  g_ptr_array_add(argv, g_strdup("--will-cite"));
  g_ptr_array_add(argv, g_strconcat("--joblog=", joblog, NULL));
  g_ptr_array_add(argv, g_strdup("--resume-failed"));
  if (r->jobs > 0)
    g_ptr_array_add(argv, g_strdup_printf("--jobs=%d", r->jobs));
  for (size_t i = 0; r->args && r->args[i]; i++)
    g_ptr_array_add(argv, g_strdup(r->args[i]));
  g_ptr_array_add(argv, NULL);
  int in = open(tasks, O_RDONLY | O_CLOEXEC);
  pid_t pid = in < 0 ? -1 : fork();
  if (pid == 0) {
    dup2(in, 0);
    int nul = open("/dev/null", O_WRONLY);
    if (nul >= 0)
      dup2(nul, 1); /* the tasks write files; parallel's own messages stay on stderr */
    execvp("parallel", (char **)argv->pdata);
    _exit(127);
  }
  if (pid < 0)
    fprintf(stderr, "collsim sweep: cannot start GNU parallel on %s: %s\n", tasks, g_strerror(errno));
  if (in >= 0)
    close(in);
  g_ptr_array_free(argv, TRUE);
  g_free(tasks);
  g_free(joblog);
  return pid;
}

/* Wait for parallel, following the rows; its wait status, or -1 when
 * interrupted (parallel is stopped: it stops its jobs). */
static int follow_parallel(pid_t pid, const cs_plan *p, cs_progress *line)
{
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid)
      return runner_signal ? -1 : status;
    if (runner_signal) {
      kill(pid, SIGTERM);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
      return -1;
    }
    follow_update(line, p);
    g_usleep(POLL_US);
  }
}

/* Drop the joblog's lines of the tasks to run again, so that
 * --resume-failed runs them even where the joblog says they succeeded
 * (their row was lost or refused). */
static gboolean forget_in_joblog(const cs_plan *p, GArray *tasks)
{
  char *path = cs_plan_file(p, "joblog"), *text = NULL;
  gboolean ok = TRUE;
  if (tasks && g_file_get_contents(path, &text, NULL, NULL)) {
    GHashTable *again = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (guint i = 0; i < tasks->len; i++)
      g_hash_table_add(again, GUINT_TO_POINTER(g_array_index(tasks, guint, i) + 1));
    char **lines = g_strsplit(text, "\n", -1);
    GString *kept = g_string_new(NULL);
    for (size_t i = 0; lines[i]; i++)
      if (*lines[i] && (i == 0 || !g_hash_table_contains(again, GUINT_TO_POINTER(atoi(lines[i])))))
        g_string_append_printf(kept, "%s\n", lines[i]);
    GError *err = NULL;
    if (!(ok = cs_write_file_atomic(path, kept->str, kept->len, &err))) {
      fprintf(stderr, "collsim sweep: error: %s\n", err->message);
      g_error_free(err);
    }
    g_string_free(kept, TRUE);
    g_strfreev(lines);
    g_hash_table_destroy(again);
  }
  g_free(text);
  g_free(path);
  return ok;
}

static int run_parallel(const cs_plan *p, const cs_experiment *e, const cs_runner *r, GArray *tasks)
{
  if (!forget_in_joblog(p, tasks))
    return 2;
  pid_t pid = start_parallel(p, r);
  if (pid < 0)
    return 1;
  cs_progress *line = follow_new(p, e, "GNU parallel", r->quiet);
  int status = follow_parallel(pid, p, line);
  follow_update(line, p);
  cs_progress_finish(line);
  if (status < 0) {
    fprintf(stderr, "collsim sweep: interrupted by signal %d; GNU parallel stopped; the same command resumes "
            "(its joblog %s/joblog skips what is done)\n", (int)runner_signal, p->dir);
    return 128 + runner_signal;
  }
  /* 0: all done; 1-101: that many failed (gathering reports them) */
  if (WIFEXITED(status) && WEXITSTATUS(status) <= 101)
    return 0;
  fprintf(stderr, "collsim sweep: GNU parallel failed (%s %d; its message is above)\n",
          WIFEXITED(status) ? "exit status" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  return 1;
}

/* -------------------------------------------------------------- slurm ---- */

/* Whether a --runner-arg gives option `name` (long) or `letter` (NULL: none). */
static gboolean args_give(char *const *args, const char *name, const char *letter)
{
  gboolean found = FALSE;
  for (size_t i = 0; !found && args && args[i]; i++) {
    char *n = option_name(args[i]);
    found = n && (strcmp(n, name) == 0 || (letter && strcmp(n, letter) == 0));
    g_free(n);
  }
  return found;
}

/* The largest estimate of the plan's tasks. */
static void largest(const cs_plan *p, double *seconds, double *mib)
{
  *seconds = *mib = 0;
  for (guint i = 0; i < p->tasks->len; i++) {
    const cs_plan_task *t = &g_array_index(p->tasks, cs_plan_task, i);
    *seconds = MAX(*seconds, t->seconds);
    *mib = MAX(*mib, t->peak_mib);
  }
}

/* A job name Slurm shows: the experiment's name, letters, digits, -_. only. */
static char *job_name(const cs_experiment *e)
{
  char *name = g_strconcat("collsim-", e->name, NULL);
  for (char *c = name; *c; c++)
    if (!g_ascii_isalnum(*c) && !strchr("-_.", *c))
      *c = '_';
  return name;
}

/* The #SBATCH lines of the user's options: an argument that is no option
 * is the value of the one before it. */
static void append_user_options(GString *s, char *const *args)
{
  for (size_t i = 0; args && args[i]; i++) {
    if (args[i][0] == '-')
      g_string_append_printf(s, "%s#SBATCH %s", i ? "\n" : "", args[i]);
    else
      g_string_append_printf(s, " %s", args[i]);
  }
  if (args && args[0])
    g_string_append_c(s, '\n');
}

static char *job_script(const cs_plan *p, const cs_experiment *e, const cs_runner *r)
{
  double seconds, mib;
  largest(p, &seconds, &mib);
  char *name = job_name(e);
  GString *s = g_string_new("#!/bin/sh\n");
  g_string_append_printf(s, "# The Slurm job array of collsim sweep %s (experiment hash %s), written by collsim\n"
                         "# sweep --runner slurm: array task I runs line I + 1 of tasks.txt (its point's output\n"
                         "# goes to rows/, its stderr to logs/), then writes its exit status to status/I.\n"
                         "# Largest estimate of a task: %.1f s, %.0f MiB (see estimates).\n",
                         e->name, p->hash, seconds, mib);
  g_string_append_printf(s, "#SBATCH --job-name=%s\n#SBATCH --output=%s/logs/slurm-%%a.log\n", name, p->dir);
  if (!args_give(r->args, "time", "t"))
    g_string_append_printf(s, "#SBATCH --time=%.0f\n", ceil((seconds * SLURM_TIME_MARGIN + SLURM_TIME_FLOOR_S) / 60));
  if (!args_give(r->args, "mem", NULL) && !args_give(r->args, "mem-per-cpu", NULL))
    g_string_append_printf(s, "#SBATCH --mem=%.0fM\n", ceil(mib * SLURM_MEM_MARGIN));
  append_user_options(s, r->args);
  char *qtasks = g_shell_quote(p->dir);
  g_string_append_printf(s, "dir=%s\n"
                         "task=${SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}\n"
                         "line=$(sed -n \"$((task + 1))p\" \"$dir/tasks.txt\")\n"
                         "if [ -z \"$line\" ]; then\n"
                         "  echo \"collsim sweep: no task $task in $dir/tasks.txt\" >&2\n"
                         "  exit 2\n"
                         "fi\n"
                         "sh -c \"$line\"\n"
                         "status=$?\n"
                         "echo \"$status\" > \"$dir/status/$task\"\n"
                         "exit \"$status\"\n",
                         qtasks);
  g_free(qtasks);
  g_free(name);
  return g_string_free(s, FALSE);
}

/* "0-9" or "1,4-6,9", then "%K" with a throttle. */
static char *array_spec(const cs_plan *p, GArray *tasks, int throttle)
{
  GString *s = g_string_new(NULL);
  guint n = tasks ? tasks->len : p->tasks->len;
  for (guint i = 0; i < n;) {
    guint first = tasks ? g_array_index(tasks, guint, i) : i, last = first;
    while (++i < n && (tasks ? g_array_index(tasks, guint, i) : i) == last + 1)
      last++;
    g_string_append_printf(s, "%s%u", s->len ? "," : "", first);
    if (last > first)
      g_string_append_printf(s, "-%u", last);
  }
  if (throttle > 0)
    g_string_append_printf(s, "%%%d", throttle);
  return g_string_free(s, FALSE);
}

/* Remove the exit statuses of tasks about to run again. */
static void clear_statuses(const cs_plan *p, GArray *tasks)
{
  guint n = tasks ? tasks->len : p->tasks->len;
  for (guint i = 0; i < n; i++) {
    char *f = g_strdup_printf("%s/status/%u", p->dir, tasks ? g_array_index(tasks, guint, i) : i);
    unlink(f);
    g_free(f);
  }
}

/* Submit; the job id (g_free it), or NULL with *status (a message printed). */
static char *submit(const cs_plan *p, GArray *tasks, int throttle, int *status)
{
  char *script = cs_plan_file(p, "job.sh"), *spec = array_spec(p, tasks, throttle);
  char *array = g_strconcat("--array=", spec, NULL);
  char *argv[] = {"sbatch", "--parsable", array, script, NULL}, *out = NULL, *errtext = NULL, *id = NULL;
  int wait_status = 0;
  clear_statuses(p, tasks);
  if (!run_capture(argv, &out, &errtext, &wait_status)) {
    fprintf(stderr, "collsim sweep: cannot run sbatch\n");
    *status = 1;
  } else if (!g_spawn_check_wait_status(wait_status, NULL)) {
    char *why = first_line(errtext, out);
    fprintf(stderr, "collsim sweep: error: sbatch refused the job array (nothing submitted): %s\n", why);
    g_free(why);
    *status = 2;
  } else {
    id = g_strndup(out, strcspn(out, ";\n"));
    char *jobs = cs_plan_file(p, "slurm-jobs");
    FILE *f = fopen(jobs, "a");
    if (f) {
      fprintf(f, "%s\t%s\n", id, spec);
      fclose(f);
    }
    g_free(jobs);
  }
  g_free(out);
  g_free(errtext);
  g_free(array);
  g_free(spec);
  g_free(script);
  return id;
}

/* Is the job still in squeue (pending or running tasks)? */
static gboolean job_queued(const char *id)
{
  char *argv[] = {"squeue", "--noheader", "--jobs", (char *)id, "--format=%i", NULL}, *out = NULL, *errtext = NULL;
  int status = 0;
  gboolean queued = run_capture(argv, &out, &errtext, &status) && g_spawn_check_wait_status(status, NULL) &&
                    out && *g_strstrip(out);
  g_free(out);
  g_free(errtext);
  return queued;
}

/* Follow the job until squeue no longer lists it; FALSE when interrupted. */
static gboolean follow_slurm(const char *id, const cs_plan *p, cs_progress *line)
{
  gint64 next_ask = 0;
  for (;;) {
    if (runner_signal)
      return FALSE;
    if (g_get_monotonic_time() >= next_ask) {
      if (!job_queued(id))
        return TRUE;
      next_ask = g_get_monotonic_time() + SQUEUE_EVERY_US;
    }
    follow_update(line, p);
    g_usleep(POLL_US);
  }
}

static int run_slurm(const cs_plan *p, const cs_experiment *e, const cs_runner *r, GArray *tasks)
{
  char *script = cs_plan_file(p, "job.sh");
  GError *err = NULL;
  int status = 0;
  if (!tasks || !g_file_test(script, G_FILE_TEST_EXISTS)) {
    char *text = job_script(p, e, r);
    gboolean ok = cs_write_file_atomic(script, text, strlen(text), &err);
    g_free(text);
    if (!ok) {
      fprintf(stderr, "collsim sweep: error: %s\n", err->message);
      g_error_free(err);
      g_free(script);
      return 2;
    }
  }
  g_free(script);
  char *id = submit(p, tasks, r->throttle, &status);
  if (!id)
    return status;
  if (!r->quiet || !r->wait)
    fprintf(stderr, "collsim sweep: submitted Slurm job %s (%u task(s)%s)\n", id, tasks ? tasks->len : p->tasks->len,
            r->wait ? "; following it" : "");
  if (r->wait) {
    cs_progress *line = follow_new(p, e, "Slurm", r->quiet);
    gboolean ended = follow_slurm(id, p, line);
    follow_update(line, p);
    cs_progress_finish(line);
    if (!ended) {
      fprintf(stderr, "collsim sweep: interrupted by signal %d; Slurm job %s goes on: collect its rows later with "
              "collsim sweep %s --gather %s --out FILE\n", (int)runner_signal, id, e->path, p->dir);
      status = 128 + runner_signal;
    }
  }
  g_free(id);
  return status;
}

int cs_runner_run(const cs_plan *p, const cs_experiment *e, const cs_runner *r, GArray *tasks)
{
  if (r->kind == CS_RUNNER_LOCAL || p->tasks->len == 0 || (tasks && tasks->len == 0))
    return 0;
  saved_signals saved;
  catch_signals(&saved);
  int status = r->kind == CS_RUNNER_SLURM ? run_slurm(p, e, r, tasks) : run_parallel(p, e, r, tasks);
  restore_signals(&saved);
  return status;
}

/* ------------------------------------------------------------ records ---- */

/* Task's line of a parallel joblog (Seq = task + 1; the last one counts):
 * "exit status X" / "killed by signal S" (g_free it), or NULL. */
static char *joblog_status(const cs_plan *p, guint task)
{
  char *path = cs_plan_file(p, "joblog"), *text = NULL, *found = NULL;
  if (g_file_get_contents(path, &text, NULL, NULL)) {
    char **lines = g_strsplit(text, "\n", -1);
    for (size_t i = 1; lines[i]; i++) {
      char **f = g_strsplit(lines[i], "\t", 9);
      if (g_strv_length(f) >= 8 && g_ascii_strtoull(f[0], NULL, 10) == (guint64)task + 1) {
        g_free(found);
        int sig = atoi(f[7]);
        found = sig ? g_strdup_printf("killed by signal %d", sig) : g_strdup_printf("exit status %s", f[6]);
      }
      g_strfreev(f);
    }
    g_strfreev(lines);
  }
  g_free(text);
  g_free(path);
  return found;
}

char *cs_runner_task_status(const cs_plan *p, guint task)
{
  char *path = g_strdup_printf("%s/status/%u", p->dir, task), *text = NULL, *status = NULL;
  if (g_file_get_contents(path, &text, NULL, NULL) && *g_strstrip(text))
    status = g_strdup_printf("exit status %s", text);
  g_free(text);
  g_free(path);
  return status ? status : joblog_status(p, task);
}

cs_runner_kind cs_runner_of_plan(const cs_plan *p)
{
  char *script = cs_plan_file(p, "job.sh"), *joblog = cs_plan_file(p, "joblog");
  cs_runner_kind kind = g_file_test(script, G_FILE_TEST_EXISTS)   ? CS_RUNNER_SLURM
                        : g_file_test(joblog, G_FILE_TEST_EXISTS) ? CS_RUNNER_PARALLEL
                                                                  : CS_RUNNER_LOCAL;
  g_free(script);
  g_free(joblog);
  return kind;
}
