/* What a sweep's point will cost, for the sweep's ETA: see point_cost.h. */
#include "sim/sweep/point_cost.h"

#include "sim/contracts/progress.h"
#include "sim/contracts/tempdir.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* Waits for pid until deadline (g_get_monotonic_time), then kills it (a
 * command that never reaches the simulation, e.g. an untimed one, would run
 * whole); TRUE and its status if it exited by itself. */
static gboolean wait_until(GPid pid, gint64 deadline, int *status)
{
  for (;;) {
    pid_t w = waitpid(pid, status, WNOHANG);
    if (w == pid)
      return TRUE;
    if (w < 0 && errno != EINTR)
      return FALSE;
    if (g_get_monotonic_time() >= deadline) {
      kill(pid, SIGKILL);
      while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
      return FALSE;
    }
    g_usleep(5000);
  }
}

/* Runs the point's command with COLLSIM_PLAN until deadline; writes its n
 * and messages if the plan succeeds, else nothing. */
static void plan_point(const cs_experiment *e, const cs_point *p, const char *exe, gint64 deadline, int64_t *n,
                       double *messages)
{
  char *path = cs_tempfile("plan", ".txt", NULL);
  if (!path)
    return;
  char **argv = cs_point_argv(e, p, exe);
  /* G_SPAWN_FILE_AND_ARGV_ZERO: run /proc/self/exe with argv[0] = exe */
  GPtrArray *full = g_ptr_array_new();
  g_ptr_array_add(full, (gpointer) "/proc/self/exe");
  for (char **a = argv; *a; a++)
    g_ptr_array_add(full, *a);
  g_ptr_array_add(full, NULL);
  char **env = g_environ_setenv(g_get_environ(), "COLLSIM_PLAN", path, TRUE);
  env = g_environ_unsetenv(env, "COLLSIM_PROGRESS_LOG");
  int status = -1;
  GPid pid = 0;
  gboolean ran = g_spawn_async(NULL, (char **)full->pdata, env,
                               G_SPAWN_FILE_AND_ARGV_ZERO | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                                   G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &pid, NULL) &&
                 wait_until(pid, deadline, &status);
  char *text = NULL;
  if (ran && WIFEXITED(status) && WEXITSTATUS(status) == 0 && g_file_get_contents(path, &text, NULL, NULL)) {
    long long procs = 0;
    double m = 0, work = 0, compute = 0;
    if (sscanf(text, "%lld %lf %lf %lf", &procs, &m, &work, &compute) == 4 && procs > 0 && m >= 0 && isfinite(m)) {
      *n = procs;
      *messages = m;
    }
  }
  g_free(text);
  cs_tempfile_remove(path);
  g_free(path);
  g_strfreev(env);
  g_ptr_array_free(full, TRUE);
  g_strfreev(argv);
}

/* Point i was planned and knows its messages. */
static bool knows_messages(const int64_t *planned_n, const double *planned_messages, size_t i)
{
  return planned_n[i] > 0 && planned_messages[i] > 0;
}

void cs_point_costs_estimate(const int64_t *planned_n, const double *planned_messages, const int64_t *point_n,
                             size_t count, cs_point_cost *out)
{
  double messages = 0, processes = 0; /* over the points that know their messages */
  for (size_t i = 0; i < count; i++)
    if (knows_messages(planned_n, planned_messages, i)) {
      messages += planned_messages[i];
      processes += (double)planned_n[i];
    }
  double per_process = processes > 0 ? messages / processes : 0;
  double sum = 0;
  size_t known = 0;
  for (size_t i = 0; i < count; i++) {
    int64_t n = planned_n[i] > 0 ? planned_n[i] : point_n[i];
    out[i] = (cs_point_cost){0, -1, n > 0 ? n : 0};
    if (n <= 0)
      continue; /* below: the mean */
    out[i].fixed = cs_run_cost_fixed(n);
    out[i].variable = cs_run_cost_variable(
        n, knows_messages(planned_n, planned_messages, i) ? planned_messages[i] : per_process * (double)n);
    sum += cs_point_cost_total(&out[i]);
    known++;
  }
  for (size_t i = 0; i < count; i++)
    if (out[i].variable < 0)
      out[i] = (cs_point_cost){known ? sum / (double)known : POINT_COST_PER_RUN, 0, 0};
}

cs_point_cost *cs_point_costs_plan(const cs_experiment *e, GPtrArray *pending, const char *exe,
                                   const cs_plan_budget *b)
{
  size_t count = pending->len;
  char *label = g_strdup_printf(b->per_point ? "%s: planning (each point's size, for the estimates)"
                                             : "%s: planning (each point's size, for the ETA)", e->name);
  cs_progress *line = cs_progress_new(stderr, label, count, (double)count, b->quiet);
  g_free(label);
  int64_t *planned_n = g_new0(int64_t, count), *point_n = g_new0(int64_t, count);
  double *planned_messages = g_new0(double, count);
  gint64 deadline = g_get_monotonic_time() + (gint64)(POINT_PLAN_BUDGET_S * 1e6);
  for (size_t i = 0; i < count; i++) {
    const cs_point *p = g_ptr_array_index(pending, i);
    point_n[i] = e->generic ? 0 : p->n;
    if (b->per_point)
      deadline = g_get_monotonic_time() + (gint64)(POINT_PLAN_BUDGET_S * 1e6);
    if (g_get_monotonic_time() < deadline) /* not planned: planned_n stays 0 */
      plan_point(e, p, exe, deadline, &planned_n[i], &planned_messages[i]);
    cs_progress_done(line, 1, FALSE);
  }
  cs_progress_finish(line);
  cs_point_cost *costs = g_new(cs_point_cost, count ? count : 1);
  cs_point_costs_estimate(planned_n, planned_messages, point_n, count, costs);
  g_free(planned_n);
  g_free(point_n);
  g_free(planned_messages);
  return costs;
}

/* The last complete line of a file (at most its last 512 bytes), or NULL. */
static char *last_line(const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  char buf[513];
  size_t got = 0;
  if (fseek(f, -(long)(sizeof buf - 1), SEEK_END) != 0)
    rewind(f);
  got = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[got] = '\0';
  char *end = got && buf[got - 1] == '\n' ? &buf[got - 1] : strrchr(buf, '\n');
  if (!end)
    return NULL; /* no complete line yet */
  *end = '\0';
  char *start = strrchr(buf, '\n');
  return g_strdup(start ? start + 1 : buf);
}

double cs_point_cost_done(const cs_point_cost *c, const char *log_path)
{
  char *line = log_path ? last_line(log_path) : NULL;
  if (!line)
    return 0;
  double done = 0, total = 0; /* the line's last two fields: the meter's done and total */
  int got = sscanf(line, "%*f %*f %*f %*f %lf %lf", &done, &total);
  g_free(line);
  if (got != 2)
    return 0;
  double fraction = total > 0 ? MIN(1.0, done / total) : 0;
  return c->fixed + c->variable * fraction;
}
