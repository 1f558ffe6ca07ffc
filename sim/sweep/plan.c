/* A sweep's plan for other machines (tasks, estimates, manifest): see plan.h. */
#include "sim/sweep/plan.h"

#include "sim/contracts/errors.h"
#include "sim/contracts/output_path.h"
#include "sim/drivers/run_config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MANIFEST_TITLE "# collsim sweep plan (collsim sweep EXPERIMENT --gather DIR reads it; do not edit)\n"

char *cs_experiment_hash(const cs_experiment *e)
{
  GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
  g_checksum_update(sum, (const guchar *)e->name, -1);
  for (size_t i = 0; i < cs_experiment_npoints(e); i++) {
    const cs_point *p = cs_experiment_point(e, i);
    const char *key = p->key ? p->key : p->config_key;
    g_checksum_update(sum, (const guchar *)"\n", 1);
    g_checksum_update(sum, (const guchar *)key, -1);
  }
  char *hex = g_strdup(g_checksum_get_string(sum));
  g_checksum_free(sum);
  hex[16] = '\0';
  return hex;
}

char *cs_plan_file(const cs_plan *p, const char *name) { return g_build_filename(p->dir, name, NULL); }

char *cs_plan_row_path(const char *dir, size_t point) { return g_strdup_printf("%s/rows/%06zu.csv", dir, point); }

char *cs_plan_log_path(const char *dir, size_t point) { return g_strdup_printf("%s/logs/%06zu.log", dir, point); }

long cs_plan_task_of(const cs_plan *p, size_t point)
{
  for (guint i = 0; i < p->tasks->len; i++)
    if (g_array_index(p->tasks, cs_plan_task, i).point == point)
      return (long)i;
  return -1;
}

/* A new plan goes to a new or empty folder only: never among other files
 * (--plan / or --plan ~ would scatter tasks.txt, rows/ and logs/ there). */
static gboolean folder_empty(const char *dir, GError **err)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  gboolean empty = d && g_dir_read_name(d) == NULL;
  if (d)
    g_dir_close(d);
  return empty ? TRUE
               : cs_input_error(err, "%s is a folder that holds other files and no plan: give a new or empty "
                                "folder", dir);
}

/* The value of `name` in a manifest's text (g_free it), or NULL. */
static char *manifest_value(const char *text, const char *name)
{
  char **lines = g_strsplit(text, "\n", -1);
  char *value = NULL;
  size_t len = strlen(name);
  for (size_t i = 0; lines[i] && !value; i++)
    if (strncmp(lines[i], name, len) == 0 && lines[i][len] == '\t')
      value = g_strdup(lines[i] + len + 1);
  g_strfreev(lines);
  return value;
}

/* A folder that does not exist yet can be made: the nearest existing one
 * above it is a folder we may write in. */
static gboolean can_make(const char *dir, GError **err)
{
  char *above = g_path_get_dirname(dir);
  while (!g_file_test(above, G_FILE_TEST_EXISTS) && strcmp(above, ".") != 0 && strcmp(above, "/") != 0) {
    char *up = g_path_get_dirname(above);
    g_free(above);
    above = up;
  }
  gboolean ok = g_file_test(above, G_FILE_TEST_IS_DIR) && access(above, W_OK | X_OK) == 0;
  if (!ok)
    cs_input_error(err, "%s: cannot make the folder: %s %s", dir, above,
                   g_file_test(above, G_FILE_TEST_IS_DIR) ? "cannot be written" : "is not a folder");
  g_free(above);
  return ok;
}

gboolean cs_plan_dir_check(const cs_experiment *e, const char *dir, gboolean must_exist, GError **err)
{
  if (!g_file_test(dir, G_FILE_TEST_EXISTS))
    return must_exist ? cs_input_error(err, "%s: no such folder (no plan there)", dir) : can_make(dir, err);
  if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
    return cs_input_error(err, "%s is not a folder", dir);
  if (access(dir, R_OK | W_OK | X_OK) != 0)
    return cs_input_error(err, "%s: cannot use the folder: %s", dir, g_strerror(errno));
  char *path = g_build_filename(dir, "manifest", NULL), *text = NULL;
  GError *e2 = NULL;
  gboolean exists = g_file_test(path, G_FILE_TEST_EXISTS), ok = TRUE;
  if (!exists) {
    ok = must_exist ? cs_input_error(err, "%s holds no plan (no manifest: make one with --plan)", dir)
                    : folder_empty(dir, err);
  } else if (!g_file_get_contents(path, &text, NULL, &e2)) {
    ok = cs_input_error(err, "%s: cannot read: %s", path, e2->message);
    g_error_free(e2);
  } else {
    char *theirs = manifest_value(text, "experiment_hash"), *ours = cs_experiment_hash(e);
    char *name = manifest_value(text, "experiment");
    if (!theirs)
      ok = cs_input_error(err, "%s is not a collsim sweep plan's manifest (no experiment_hash)", path);
    else if (strcmp(theirs, ours) != 0)
      ok = cs_input_error(err, "%s holds the plan of another experiment ('%s', hash %s; %s's is %s: another "
                          "experiment, parameter or collsim version): use another folder", dir, name ? name : "?",
                          theirs, e->name, ours);
    g_free(theirs);
    g_free(ours);
    g_free(name);
  }
  g_free(text);
  g_free(path);
  return ok;
}

char *cs_plan_task_line(const cs_experiment *e, const cs_point *p, const char *exe, const char *dir,
                        const char *cwd)
{
  char **argv = cs_point_argv(e, p, exe);
  char *row = cs_plan_row_path(dir, p->index), *log = cs_plan_log_path(dir, p->index);
  guint n = g_strv_length(argv);
  argv = g_renew(char *, argv, n + 2);
  argv[n] = g_strconcat("--out=", row, NULL);
  argv[n + 1] = NULL;
  char *command = cs_shell_join(argv), *qcwd = g_shell_quote(cwd), *qlog = g_shell_quote(log);
  char *line = g_strdup_printf("cd %s && %s 2>%s", qcwd, command, qlog);
  g_free(command);
  g_free(qcwd);
  g_free(qlog);
  g_free(row);
  g_free(log);
  g_strfreev(argv);
  return line;
}

/* What a point is, for a person reading the estimates (no tab, no line break). */
static char *point_label(const cs_point *p)
{
  char *s = p->key ? g_strdup(p->key)
                   : g_strdup_printf("%s n=%d f=%g k=%d colors=%d seed=%" G_GUINT64_FORMAT, p->algo, p->n, p->f,
                                     p->k, p->colors, p->seed);
  return g_strdelimit(s, "\t\r\n", ' ');
}

static char *estimates_text(GPtrArray *pending, const cs_point_cost *costs)
{
  GString *s = g_string_new("task\tpoint\tseconds\tpeak_mib\tprocesses\twhat\n");
  for (guint i = 0; i < pending->len; i++) {
    const cs_point *p = g_ptr_array_index(pending, i);
    char *label = point_label(p);
    g_string_append_printf(s, "%u\t%zu\t%.2f\t%.0f\t%" G_GINT64_FORMAT "\t%s\n", i, p->index,
                           cs_point_cost_seconds(&costs[i]), ceil(cs_point_cost_peak_mib(&costs[i])),
                           costs[i].processes, label);
    g_free(label);
  }
  return g_string_free(s, FALSE);
}

static char *manifest_text(const cs_experiment *e, size_t tasks)
{
  char *hash = cs_experiment_hash(e), *file = g_canonicalize_filename(e->path, NULL);
  char *text = g_strdup_printf(MANIFEST_TITLE "experiment_hash\t%s\nexperiment\t%s\nexperiment_file\t%s\n"
                               "collsim_version\t%s\npoints\t%zu\ntasks\t%zu\n",
                               hash, e->name, file, cs_collsim_version(), cs_experiment_npoints(e), tasks);
  g_free(hash);
  g_free(file);
  return text;
}

/* The runners' records name tasks by number: stale once the list changed. */
static void forget_runs(const char *dir)
{
  char *joblog = g_build_filename(dir, "joblog", NULL), *status = g_build_filename(dir, "status", NULL);
  unlink(joblog);
  GDir *d = g_dir_open(status, 0, NULL);
  for (const char *name; d && (name = g_dir_read_name(d));) {
    char *f = g_build_filename(status, name, NULL);
    unlink(f);
    g_free(f);
  }
  if (d)
    g_dir_close(d);
  g_free(joblog);
  g_free(status);
}

/* Write name in dir unless it holds text already; *changed when it did not. */
static gboolean put_file(const char *dir, const char *name, const char *text, gboolean *changed, GError **err)
{
  char *path = g_build_filename(dir, name, NULL), *old = NULL;
  gboolean same = g_file_get_contents(path, &old, NULL, NULL) && strcmp(old, text) == 0;
  gboolean ok = same || cs_write_file_atomic(path, text, strlen(text), err);
  if (changed)
    *changed = !same;
  g_free(old);
  g_free(path);
  return ok;
}

static gboolean make_folders(const char *dir, GError **err)
{
  const char *subs[] = {"", "rows", "logs", "status"};
  for (size_t i = 0; i < G_N_ELEMENTS(subs); i++) {
    char *path = g_build_filename(dir, subs[i], NULL);
    int rc = g_mkdir_with_parents(path, 0777);
    int e = errno;
    g_free(path);
    if (rc != 0)
      return cs_input_error(err, "%s: cannot make the plan's folders: %s", dir, g_strerror(e));
  }
  return TRUE;
}

static cs_plan *plan_new(const cs_experiment *e, const char *dir)
{
  cs_plan *p = g_new0(cs_plan, 1);
  p->dir = g_canonicalize_filename(dir, NULL);
  p->hash = cs_experiment_hash(e);
  p->tasks = g_array_new(FALSE, FALSE, sizeof(cs_plan_task));
  return p;
}

cs_plan *cs_plan_write(const cs_experiment *e, GPtrArray *pending, const cs_point_cost *costs, const char *dir,
                       const char *exe, GError **err)
{
  cs_plan *p = plan_new(e, dir);
  char *cwd = g_get_current_dir();
  GString *tasks = g_string_new(NULL);
  for (guint i = 0; i < pending->len; i++) {
    const cs_point *pt = g_ptr_array_index(pending, i);
    char *line = cs_plan_task_line(e, pt, exe, p->dir, cwd);
    g_string_append_printf(tasks, "%s\n", line);
    g_free(line);
    cs_plan_task t = {pt->index, cs_point_cost_seconds(&costs[i]), cs_point_cost_peak_mib(&costs[i])};
    g_array_append_val(p->tasks, t);
  }
  char *estimates = estimates_text(pending, costs), *manifest = manifest_text(e, pending->len);
  gboolean changed = FALSE;
  gboolean ok = make_folders(p->dir, err) && put_file(p->dir, "tasks.txt", tasks->str, &changed, err);
  if (ok && changed)
    forget_runs(p->dir);
  ok = ok && put_file(p->dir, "estimates", estimates, NULL, err) && put_file(p->dir, "manifest", manifest, NULL, err);
  g_string_free(tasks, TRUE);
  g_free(estimates);
  g_free(manifest);
  g_free(cwd);
  if (!ok)
    g_clear_pointer(&p, cs_plan_free);
  return p;
}

/* One line of the estimates: task, point, seconds, peak_mib. */
static gboolean parse_estimate(const char *line, guint task, cs_plan_task *t)
{
  unsigned long long index, point;
  double seconds, mib;
  return sscanf(line, "%llu\t%llu\t%lf\t%lf", &index, &point, &seconds, &mib) == 4 && index == task &&
         ((*t = (cs_plan_task){(size_t)point, seconds, mib}), TRUE);
}

cs_plan *cs_plan_read(const cs_experiment *e, const char *dir, GError **err)
{
  if (!cs_plan_dir_check(e, dir, TRUE, err))
    return NULL;
  cs_plan *p = plan_new(e, dir);
  char *path = cs_plan_file(p, "estimates"), *text = NULL;
  GError *e2 = NULL;
  gboolean ok = g_file_get_contents(path, &text, NULL, &e2);
  if (!ok) {
    cs_input_error(err, "%s: cannot read: %s", path, e2->message);
    g_error_free(e2);
  }
  char **lines = ok ? g_strsplit(text, "\n", -1) : NULL;
  for (guint i = 1; ok && lines[i] && *lines[i]; i++) {
    cs_plan_task t;
    if (!parse_estimate(lines[i], i - 1, &t) || t.point >= cs_experiment_npoints(e))
      ok = cs_input_error(err, "%s: line %u is not a task of this experiment: '%s'", path, i + 1, lines[i]);
    else
      g_array_append_val(p->tasks, t);
  }
  g_strfreev(lines);
  g_free(text);
  g_free(path);
  if (!ok)
    g_clear_pointer(&p, cs_plan_free);
  return p;
}

void cs_plan_free(cs_plan *p)
{
  if (!p)
    return;
  g_free(p->dir);
  g_free(p->hash);
  g_array_free(p->tasks, TRUE);
  g_free(p);
}
