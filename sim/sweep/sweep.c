/* collsim sweep EXPERIMENT.yaml --out results.csv [--quiet] [--jobs J]
 *                [--shard I/N] [--dry-run]
 *
 * Runs every point of an experiment (see experiment.h for the YAML schema and
 * the point order) as a child process: the collsim binary itself
 * (/proc/self/exe) with the experiment's subcommand (`tree ... --format csv
 * --no-header --quiet` for the tree schema; `COMMAND --OPTION=VALUE ...
 * --format=csv --quiet` for generic experiments, whose resume goes through
 * a journal: see sweep.h), so SimGrid is initialised once per point and a
 * crash costs one point.  Each finished row is appended to the output and
 * flushed to disk (fsync) at once.
 *
 * Resume (tree schema): when the output exists its rows are read, and points
 * whose config_key (the last column: the point's whole configuration, see
 * sweep.h) is already there are skipped, so running the same command again
 * after an interruption finishes the sweep, and a changed parameter or
 * extra_args runs the point again.  The header is written only into a new or
 * empty file; a file whose header differs from this collsim's is refused
 * (exit 2).  The output's missing folders are made (and removed again when
 * the sweep writes nothing).  A last line
 * cut by an interrupted write is dropped.  The output is locked (flock) while
 * a sweep writes it: give each concurrent sweep its own file.
 *
 * Exit status: 0 all done; 1 some point failed (each is reported on stderr
 * with its command line, and the sweep goes on); 2 bad input (usage, YAML,
 * output file, or a child exiting 2, which stops the sweep); 128+signal when
 * interrupted (SIGINT, SIGTERM, SIGHUP: running children are terminated).
 *
 * Larger sweeps run on existing engines, never on a scheduler of ours:
 * --plan DIR with --runner parallel|slurm and --gather DIR (plan.h,
 * runner.h, cluster.c; docs/sweeps-on-clusters.md) do it with the sweep's
 * guarantees.  By hand, without them:
 *
 *   # GNU parallel, one machine or several (--sshlogin): --dry-run lists the
 *   # pending points, each prints its row on stdout.  exp.csv must hold the
 *   # header first (any earlier sweep into it wrote it; for a new file take it
 *   # from one `collsim tree` run with a header):
 *   collsim tree --algo rank-hash -n 4 -f 1 -k 2 --format csv --quiet | head -n 1 > exp.csv
 *   collsim sweep exp.yaml --out exp.csv --dry-run | parallel -j 8 >> exp.csv
 *   collsim sweep exp.yaml --out exp.csv   # checks: runs what is still missing
 *
 *   # Slurm job array, 16 shards, one output file per shard:
 *   #SBATCH --array=0-15
 *   collsim sweep exp.yaml --quiet --shard $SLURM_ARRAY_TASK_ID/16 \
 *       --out results/exp.shard-$SLURM_ARRAY_TASK_ID.csv
 *   # then merge (one header):
 *   awk 'FNR > 1 || NR == 1' results/exp.shard-*.csv > results/exp.csv
 *
 * --shard I/N keeps the points whose index (in the experiment's point order)
 * is I modulo N.  --dry-run prints the command lines of the pending points,
 * one per line, and runs nothing.  --jobs J runs J points at once (each point
 * is one process; SimGrid itself is sequential).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_expect.h"

#include "sim/contracts/input_path.h"
#include "sim/contracts/output_path.h"
#include "sim/contracts/progress.h"
#include "sim/drivers/run_config.h"
#include "sim/drivers/spanning_tree_result.h"
#include "sim/contracts/csv.h"
#include "sim/sweep/point_cost.h"
#include "sim/contracts/tempdir.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sys/prctl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ROW_BYTES (1 << 20)
/* An output made before the configuration columns existed. */
#define OLD_FILE_MESSAGE                                                                                          \
  "%s was written by an older collsim: its rows have no configuration columns (config_key ...), so they do "    \
  "not say with which link bandwidth, latency, overheads or options they were made, and cannot be matched to "  \
  "this experiment; write to a new file (or move the old one away)"
#define MAX_ERR_BYTES (16 << 10)

/* ---------------------------------------------------------------- CSV ---- */

/* The header of a tree sweep's output: collsim tree's CSV columns, then
 * the configuration columns (sim/drivers/run_config.h). */
const char *cs_sweep_tree_header(void)
{
  static char *header;
  if (!header) {
    char *config = g_strjoinv(",", (char **)cs_config_columns());
    header = g_strconcat(cs_tree_csv_header(), ",", config, NULL);
    g_free(config);
  }
  return header;
}

/* ---------------------------------------------------------- row sets ---- */

struct cs_sweep_rows {
  int ncols;
  GHashTable *keys; /* config_key of each row */
  size_t count, bad;
};

/* The last field of a CSV line, where the configuration columns put
 * config_key (g_free it). */
static char *last_field(const char *line)
{
  GPtrArray *fields = cs_csv_fields(line);
  if (!fields)
    return NULL; /* malformed */
  char *last = g_strdup(g_ptr_array_index(fields, fields->len - 1));
  g_ptr_array_unref(fields);
  return last;
}

/* The config_key of a row (NULL unless the row has ncols fields and a key;
 * g_free it). */
static char *row_config_key(const char *line, int ncols)
{
  GPtrArray *fields = cs_csv_fields(line);
  char *key = NULL;
  if (fields && (int)fields->len == ncols && *(char *)g_ptr_array_index(fields, fields->len - 1))
    key = g_strdup(g_ptr_array_index(fields, fields->len - 1));
  if (fields)
    g_ptr_array_unref(fields);
  return key;
}

static int count_fields(const char *header)
{
  GPtrArray *h = cs_csv_fields(header);
  int n = h ? (int)h->len : 0;
  if (h)
    g_ptr_array_unref(h);
  return n;
}

gboolean cs_sweep_rows_add(cs_sweep_rows *r, const char *line)
{
  char *key = row_config_key(line, r->ncols);
  if (key) {
    g_hash_table_add(r->keys, key);
    r->count++;
  } else {
    r->bad++;
  }
  return key != NULL;
}

/* The header line of a results file, checked. */
static gboolean header_ok(const char *line, const char *path, GError **err)
{
  if (strcmp(line, cs_sweep_tree_header()) == 0)
    return TRUE;
  if (strcmp(line, cs_tree_csv_header()) == 0)
    g_set_error(err, CS_EXPERIMENT_ERROR, 3,
                OLD_FILE_MESSAGE, path);
  else
    g_set_error(err, CS_EXPERIMENT_ERROR, 3,
                "%s: its header is not collsim tree's with the configuration columns; refusing to append to it "
                "(write to a new file, or move the old one away)", path);
  return FALSE;
}

cs_sweep_rows *cs_sweep_rows_parse(const char *text, size_t len, const char *path, size_t *complete_len,
                                   GError **err)
{
  /* complete lines only */
  size_t complete = len;
  while (complete > 0 && text[complete - 1] != '\n')
    complete--;
  if (complete_len)
    *complete_len = complete;
  cs_sweep_rows *r = g_new0(cs_sweep_rows, 1);
  r->ncols = count_fields(cs_sweep_tree_header());
  r->keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  if (complete == 0)
    return r; /* new, empty, or only a cut header: start afresh */
  char *copy = g_strndup(text, complete);
  char **lines = g_strsplit(copy, "\n", -1);
  g_free(copy);
  gboolean ok = TRUE;
  for (size_t i = 0; ok && lines[i]; i++) {
    char *line = lines[i];
    size_t l = strlen(line);
    if (l && line[l - 1] == '\r')
      line[l - 1] = '\0';
    if (i == 0)
      ok = header_ok(line, path, err);
    else if (line[0] != '\0')
      cs_sweep_rows_add(r, line);
  }
  g_strfreev(lines);
  if (!ok) {
    cs_sweep_rows_free(r);
    return NULL;
  }
  return r;
}

size_t cs_sweep_rows_count(const cs_sweep_rows *r) { return r->count; }
size_t cs_sweep_rows_bad(const cs_sweep_rows *r) { return r->bad; }

gboolean cs_sweep_rows_has(const cs_sweep_rows *r, const cs_point *p)
{
  return g_hash_table_contains(r->keys, p->config_key);
}

/* Keys of `done` that are no point's of e (key_of: the point's key). */
static size_t foreign(GHashTable *done, const cs_experiment *e, gboolean by_config_key)
{
  GHashTable *ours = g_hash_table_new(g_str_hash, g_str_equal);
  for (size_t i = 0; i < cs_experiment_npoints(e); i++) {
    const cs_point *p = cs_experiment_point(e, i);
    g_hash_table_add(ours, by_config_key ? p->config_key : p->key);
  }
  size_t n = 0;
  GHashTableIter it;
  gpointer k;
  g_hash_table_iter_init(&it, done);
  while (g_hash_table_iter_next(&it, &k, NULL))
    n += !g_hash_table_contains(ours, k);
  g_hash_table_destroy(ours);
  return n;
}

size_t cs_sweep_rows_foreign(const cs_sweep_rows *r, const cs_experiment *e) { return foreign(r->keys, e, TRUE); }

void cs_sweep_rows_free(cs_sweep_rows *r)
{
  if (!r)
    return;
  g_hash_table_destroy(r->keys);
  g_free(r);
}

/* A row's config_key against the point's (*why set when they differ). */
static gboolean key_matches(const char *key, const cs_point *p, char **why)
{
  if (key && strcmp(key, p->config_key) == 0)
    return TRUE;
  *why = g_strdup_printf("its row's config_key '%s' is not the point's '%s' (the run and the sweep disagree on its "
                         "configuration)", key ? key : "", p->config_key);
  return FALSE;
}

gboolean cs_sweep_check_row(const char *row, const cs_point *p, char **why)
{
  *why = NULL;
  if (row[0] == '\0') {
    *why = g_strdup("it printed nothing on stdout");
    return FALSE;
  }
  if (strchr(row, '\n')) {
    *why = g_strdup("it printed more than one line on stdout");
    return FALSE;
  }
  int ncols = count_fields(cs_sweep_tree_header()), got = count_fields(row);
  if (got != ncols) {
    *why = g_strdup_printf("its row has %d fields, the header %d", got, ncols);
    return FALSE;
  }
  char *key = row_config_key(row, ncols);
  gboolean ok = key_matches(key, p, why);
  g_free(key);
  return ok;
}

/* ------------------------------------------------------ command lines ---- */

char *cs_sweep_command_line(char *const *argv) { return cs_shell_join(argv); }

gboolean cs_sweep_parse_shard(const char *s, int *index, int *count)
{
  long long i, n;
  char *end;
  errno = 0;
  if (!s || !g_ascii_isdigit(s[0]))
    return FALSE;
  i = strtoll(s, &end, 10);
  if (errno || *end != '/' || !g_ascii_isdigit(end[1]))
    return FALSE;
  const char *t = end + 1;
  n = strtoll(t, &end, 10);
  if (errno || *end || n < 1 || n > G_MAXINT || i >= n)
    return FALSE;
  *index = (int)i;
  *count = (int)n;
  return TRUE;
}

/* ------------------------------------------------------------ signals ---- */

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }

typedef struct saved_signals {
  struct sigaction old_int, old_term, old_hup;
} saved_signals;

static void install_signals(saved_signals *s)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0; /* no SA_RESTART: poll() returns EINTR */
  got_signal = 0;
  sigaction(SIGINT, &sa, &s->old_int);
  sigaction(SIGTERM, &sa, &s->old_term);
  sigaction(SIGHUP, &sa, &s->old_hup);
}

static void restore_signals(const saved_signals *s)
{
  sigaction(SIGINT, &s->old_int, NULL);
  sigaction(SIGTERM, &s->old_term, NULL);
  sigaction(SIGHUP, &s->old_hup, NULL);
}

/* ------------------------------------------------------------ running ---- */

typedef struct job {
  pid_t pid;
  const cs_point *pt;
  char **argv;
  int out_fd, err_fd;
  GString *out, *err;
  gboolean out_overflow;
  gboolean killed; /* we sent it SIGTERM (stopping): its end is not a failure */
  cs_point_cost cost;
  char *log_path; /* its COLLSIM_PROGRESS_LOG, followed for the ETA (NULL when quiet) */
} job;

typedef struct sweep {
  const cs_experiment *e;
  const char *out_path;
  int out_fd;
  int journal_fd;      /* generic experiments: the journal beside the output */
  gboolean needs_header; /* tree experiments: the header goes in with the first row */
  char *header;        /* generic: the output's header, NULL until the first row */
  off_t out_len;       /* generic: bytes of the output so far */
  gboolean quiet;
  cs_progress *progress;
  cs_point_cost *costs; /* of the pending points, in order (point_cost.h); NULL when quiet */
  char *exe_display;
  size_t written, failed;
  int stop_status; /* 0, or the status to exit with (2: bad input, 1: write error) */
} sweep;

/* The environment of a point's run: ours, with its progress log. */
static char **job_environment(const job *j)
{
  char **env = g_get_environ();
  return j->log_path ? g_environ_setenv(env, "COLLSIM_PROGRESS_LOG", j->log_path, TRUE)
                     : g_environ_unsetenv(env, "COLLSIM_PROGRESS_LOG");
}

static gboolean spawn_job(job *j, GError **err)
{
  int o[2], e[2];
  if (pipe2(o, O_CLOEXEC) != 0) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 4, "pipe: %s", g_strerror(errno));
    return FALSE;
  }
  if (pipe2(e, O_CLOEXEC) != 0) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 4, "pipe: %s", g_strerror(errno));
    close(o[0]);
    close(o[1]);
    return FALSE;
  }
  char **env = job_environment(j);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 4, "fork: %s", g_strerror(errno));
    close(o[0]), close(o[1]), close(e[0]), close(e[1]);
    g_strfreev(env);
    return FALSE;
  }
  if (pid == 0) {
    /* child: only async-signal-safe calls from here */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0 && nul != 0) {
      dup2(nul, 0);
      close(nul);
    }
    dup2(o[1], 1);
    dup2(e[1], 2);
    prctl(PR_SET_PDEATHSIG, SIGTERM); /* a sweep killed outright leaves no orphan running */
    execve("/proc/self/exe", j->argv, env);
    static const char msg[] = "collsim sweep: cannot execute /proc/self/exe\n";
    ssize_t unused = write(2, msg, sizeof msg - 1);
    (void)unused;
    _exit(127);
  }
  g_strfreev(env);
  close(o[1]);
  close(e[1]);
  j->pid = pid;
  j->out_fd = o[0];
  j->err_fd = e[0];
  j->out = g_string_new(NULL);
  j->err = g_string_new(NULL);
  j->out_overflow = FALSE;
  return TRUE;
}

static void job_clear(job *j)
{
  if (j->out_fd >= 0)
    close(j->out_fd);
  if (j->err_fd >= 0)
    close(j->err_fd);
  if (j->out)
    g_string_free(j->out, TRUE);
  if (j->err)
    g_string_free(j->err, TRUE);
  g_strfreev(j->argv);
  if (j->log_path)
    cs_tempfile_remove(j->log_path);
  g_free(j->log_path);
  memset(j, 0, sizeof *j);
  j->out_fd = j->err_fd = -1;
  j->pid = 0;
}

/* Read what is available; closes the fd at EOF. */
static void drain(int *fd, GString *buf, size_t cap, gboolean keep_tail, gboolean *overflow)
{
  char chunk[4096];
  ssize_t r = read(*fd, chunk, sizeof chunk);
  if (r < 0 && (errno == EINTR || errno == EAGAIN))
    return;
  if (r <= 0) {
    close(*fd);
    *fd = -1;
    return;
  }
  g_string_append_len(buf, chunk, r);
  if (buf->len > cap) {
    if (keep_tail)
      g_string_erase(buf, 0, (gssize)(buf->len - cap));
    else {
      g_string_truncate(buf, cap);
      if (overflow)
        *overflow = TRUE;
    }
  }
}

static gboolean write_all(int fd, const char *data, size_t len)
{
  while (len > 0) {
    ssize_t w = write(fd, data, len);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return FALSE;
    }
    data += w;
    len -= (size_t)w;
  }
  return TRUE;
}

static void report_failure(sweep *sw, const job *j, const char *what)
{
  char *cmd = cs_sweep_command_line(j->argv);
  GString *msg = g_string_new(NULL);
  if (j->pt->key)
    g_string_append_printf(msg, "collsim sweep: point %zu (%s) %s\n  command: %s", j->pt->index, j->pt->key, what,
                           cmd);
  else
    g_string_append_printf(msg, "collsim sweep: point %zu (%s n=%d f=%g k=%d colors=%d seed=%" PRIu64 ") %s\n  command: %s",
                           j->pt->index, j->pt->algo, j->pt->n, j->pt->f, j->pt->k, j->pt->colors, j->pt->seed,
                           what, cmd);
  if (j->err->len) {
    char *tail = g_strchomp(g_strdup(j->err->str));
    char **lines = g_strsplit(tail, "\n", -1);
    g_string_append(msg, "\n  its stderr:");
    for (size_t i = 0; lines[i]; i++)
      g_string_append_printf(msg, "\n    %s", lines[i]);
    g_strfreev(lines);
    g_free(tail);
  }
  cs_progress_message(sw->progress, "%s", msg->str);
  g_string_free(msg, TRUE);
  g_free(cmd);
}

/* CSV fields, each quoted as RFC 4180 needs (cs_put_csv_text) and followed
 * by a comma: a generic point's label values before each of its rows, or
 * the label names before the header. */
static char *csv_prefix(char *const *fields, guint n)
{
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < n; i++) {
    cs_put_csv_text(s, fields[i]);
    g_string_append_c(s, ',');
  }
  return g_string_free(s, FALSE);
}

/* A point's output split into CSV records (quotes understood: a field may
 * hold a line break): each record's text without its line ending (a
 * GPtrArray of char *; empty lines left out), and the header's fields.
 * NULL with *why when it is not CSV. */
static GPtrArray *output_records(const GString *out, GPtrArray **header_fields, char **why)
{
  cs_csv_reader r;
  cs_csv_reader_init(&r, out->str, out->len, "its output");
  GPtrArray *records = g_ptr_array_new_with_free_func(g_free), *fields;
  GError *e = NULL;
  int got;
  *header_fields = NULL;
  while ((got = cs_csv_reader_next(&r, &fields, &e)) > 0) {
    if (r.record_end > r.record_start) {
      g_ptr_array_add(records, g_strndup(out->str + r.record_start, r.record_end - r.record_start));
      if (!*header_fields)
        *header_fields = g_ptr_array_ref(fields);
    }
    g_ptr_array_unref(fields);
  }
  if (got < 0) {
    *why = g_strdup(e->message);
    g_error_free(e);
    g_ptr_array_unref(records);
    if (*header_fields)
      g_ptr_array_unref(*header_fields);
    *header_fields = NULL;
    return NULL;
  }
  return records;
}

/* A label named like a column of the command's output (the child's
 * header): one message, and the sweep stops as on bad input. */
static gboolean label_clashes(sweep *sw, GPtrArray *columns)
{
  for (guint i = 0; i < sw->e->label_names->len; i++) {
    const char *label = g_ptr_array_index(sw->e->label_names, i);
    for (guint k = 0; k < columns->len; k++)
      if (strcmp(label, g_ptr_array_index(columns, k)) == 0) {
        char *flat = g_strdelimit(g_strdup(label), "\r\n\t", ' ');
        cs_progress_message(sw->progress, "collsim sweep: %s: the label '%s' is also the column '%s' of collsim "
                            "%s's output (column %u): give the label another name", sw->e->path, flat, flat,
                            sw->e->command, k + 1);
        g_free(flat);
        if (!sw->stop_status)
          sw->stop_status = 2;
        return TRUE;
      }
  }
  return FALSE;
}

/* A generic point's output: the header line, then one or more rows.  The
 * rows (behind the labels) are appended in one write, then the journal
 * records the point with the output's new length.  FALSE with *why when the
 * point's output is unusable; FALSE without when a label clashes with a
 * column (said once, the sweep stops: bad input). */
static gboolean write_generic(sweep *sw, const job *j, char **why)
{
  GPtrArray *columns = NULL, *records = output_records(j->out, &columns, why);
  if (!records)
    return FALSE;
  guint n = records->len;
  char **lines = (char **)records->pdata;
  gboolean ok = FALSE;
  char *prefix = csv_prefix(j->pt->labels, g_strv_length(j->pt->labels)), *header = NULL;
  char *labels = csv_prefix((char **)sw->e->label_names->pdata, sw->e->label_names->len);
  if (n < 2) {
    *why = g_strdup("it printed no CSV row");
  } else if (label_clashes(sw, columns)) {
    *why = NULL;
  } else {
    header = g_strconcat(labels, lines[0], NULL);
    if (sw->header && strcmp(sw->header, header) != 0)
      *why = g_strdup_printf("its CSV header differs from the output's:\n  %s\n  %s", header, sw->header);
    else
      ok = TRUE;
  }
  for (guint i = 1; ok && i < n; i++) {
    char *key = last_field(lines[i]);
    ok = key_matches(key, j->pt, why);
    g_free(key);
  }
  GString *block = g_string_new(NULL);
  if (ok && !sw->header)
    g_string_append_printf(block, "%s\n", header);
  for (guint i = 1; ok && i < n; i++)
    g_string_append_printf(block, "%s%s\n", prefix, lines[i]);
  if (ok && !(write_all(sw->out_fd, block->str, block->len) && fsync(sw->out_fd) == 0)) {
    *why = g_strdup_printf("cannot write %s: %s", sw->out_path, g_strerror(errno));
    sw->stop_status = 1;
    ok = FALSE;
  }
  if (ok) {
    sw->out_len += (off_t)block->len;
    if (!sw->header)
      sw->header = g_strdup(header);
    char *entry = g_strdup_printf("%lld\t%s\n", (long long)sw->out_len, j->pt->key);
    if (!write_all(sw->journal_fd, entry, strlen(entry)) || fsync(sw->journal_fd) != 0) {
      *why = g_strdup_printf("cannot write the journal of %s: %s", sw->out_path, g_strerror(errno));
      sw->stop_status = 1;
      ok = FALSE;
    }
    g_free(entry);
  }
  g_string_free(block, TRUE);
  g_free(labels);
  g_free(prefix);
  g_free(header);
  if (columns)
    g_ptr_array_unref(columns);
  g_ptr_array_unref(records);
  return ok;
}

/* A tree point's output: one row for this point's configuration, appended
 * (with the header first into an empty file). */
static gboolean write_tree(sweep *sw, const job *j, char **why)
{
  GString *out = j->out;
  while (out->len && (out->str[out->len - 1] == '\n' || out->str[out->len - 1] == '\r'))
    g_string_truncate(out, out->len - 1);
  if (!cs_sweep_check_row(out->str, j->pt, why))
    return FALSE;
  g_string_append_c(out, '\n');
  if (sw->needs_header) {
    g_string_prepend_c(out, '\n');
    g_string_prepend(out, cs_sweep_tree_header());
  }
  if (!write_all(sw->out_fd, out->str, out->len) || fsync(sw->out_fd) != 0) {
    *why = g_strdup_printf("cannot write %s: %s", sw->out_path, g_strerror(errno));
    sw->stop_status = 1;
    return FALSE;
  }
  sw->needs_header = FALSE;
  return TRUE;
}

/* The child is gone: look at its status and output. */
static void finish_job(sweep *sw, job *j, int status)
{
  gboolean failed = TRUE;
  gboolean exited0 = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!exited0 && (got_signal || j->killed))
    return; /* interrupted or stopped by us: its end is ours, not the point's */
  if (exited0) {
    char *why = NULL;
    gboolean ok = !j->out_overflow && (sw->e->generic ? write_generic(sw, j, &why) : write_tree(sw, j, &why));
    if (ok) {
      failed = FALSE;
      sw->written++;
    } else if (!j->out_overflow && !why) {
      /* refused as bad input: said already */
    } else {
      char *what = g_strdup_printf("exited 0 but %s", j->out_overflow ? "it printed more than 1 MiB" : why);
      report_failure(sw, j, what);
      g_free(what);
    }
    g_free(why);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
    /* bad input: one line, the point and what its run said */
    char *first = g_strdup(j->err->len ? j->err->str : "no message");
    char *nl = strchr(first, '\n');
    if (nl)
      *nl = '\0';
    cs_progress_message(sw->progress, "collsim sweep: point %zu (%s) refused as bad input: %s", j->pt->index,
                        j->pt->key ? j->pt->key : j->pt->algo, first);
    g_free(first);
    if (!sw->stop_status)
      sw->stop_status = 2;
  } else if (WIFEXITED(status)) {
    char *what = g_strdup_printf("failed (exit status %d)", WEXITSTATUS(status));
    report_failure(sw, j, what);
    g_free(what);
  } else if (WIFSIGNALED(status)) {
    char *what = g_strdup_printf("was killed by signal %d (%s)", WTERMSIG(status), g_strsignal(WTERMSIG(status)));
    report_failure(sw, j, what);
    g_free(what);
  }
  if (failed)
    sw->failed++;
  cs_progress_set_partial(sw->progress, 0); /* its part is done now; the others' is set again at the tick */
  cs_progress_done(sw->progress, cs_point_cost_total(&j->cost), failed);
}

static void kill_all(job *jobs, int njobs)
{
  for (int i = 0; i < njobs; i++)
    if (jobs[i].pid > 0 && !jobs[i].killed) {
      kill(jobs[i].pid, SIGTERM);
      jobs[i].killed = TRUE;
    }
}

/* How much of their cost the running points have done (point_cost.h). */
static double running_cost(const job *jobs, int njobs)
{
  double done = 0;
  for (int i = 0; i < njobs; i++)
    if (jobs[i].pid > 0)
      done += cs_point_cost_done(&jobs[i].cost, jobs[i].log_path);
  return done;
}

/* Run the pending points with up to njobs children; returns FALSE on an
 * internal error (pipe, fork, poll) with err set. */
static gboolean run_points(sweep *sw, GPtrArray *pending, int njobs, GError **err)
{
  job *jobs = g_new0(job, njobs);
  for (int i = 0; i < njobs; i++)
    jobs[i].out_fd = jobs[i].err_fd = -1;
  guint next = 0;
  int running = 0;
  gboolean ok = TRUE;
  struct pollfd *pfd = g_new0(struct pollfd, 2 * njobs);
  int *owner = g_new0(int, 2 * njobs);
  for (;;) {
    /* start */
    while (ok && !got_signal && !sw->stop_status && running < njobs && next < pending->len) {
      int slot = 0;
      while (jobs[slot].pid > 0)
        slot++;
      job *j = &jobs[slot];
      j->pt = g_ptr_array_index(pending, next);
      j->argv = cs_point_argv(sw->e, j->pt, sw->exe_display);
      j->cost = sw->costs ? sw->costs[next] : (cs_point_cost){1, 0, 0};
      j->log_path = sw->costs ? cs_tempfile("point", ".log", NULL) : NULL;
      if (!spawn_job(j, err)) {
        job_clear(j);
        ok = FALSE;
        break;
      }
      next++;
      running++;
    }
    cs_progress_set_running(sw->progress, (size_t)running);
    if (running == 0)
      break;
    if (got_signal || sw->stop_status || !ok)
      kill_all(jobs, njobs);
    /* wait for output */
    int nfds = 0;
    for (int i = 0; i < njobs; i++) {
      if (jobs[i].pid <= 0)
        continue;
      if (jobs[i].out_fd >= 0) {
        pfd[nfds] = (struct pollfd){.fd = jobs[i].out_fd, .events = POLLIN};
        owner[nfds++] = i;
      }
      if (jobs[i].err_fd >= 0) {
        pfd[nfds] = (struct pollfd){.fd = jobs[i].err_fd, .events = POLLIN};
        owner[nfds++] = i;
      }
    }
    if (nfds > 0) {
      int r = poll(pfd, (nfds_t)nfds, 250);
      if (r < 0 && errno != EINTR) {
        g_set_error(err, CS_EXPERIMENT_ERROR, 4, "poll: %s", g_strerror(errno));
        ok = FALSE;
        kill_all(jobs, njobs);
      }
      for (int p = 0; r > 0 && p < nfds; p++) {
        if (!pfd[p].revents)
          continue;
        job *j = &jobs[owner[p]];
        if (pfd[p].fd == j->out_fd)
          drain(&j->out_fd, j->out, MAX_ROW_BYTES, FALSE, &j->out_overflow);
        else if (pfd[p].fd == j->err_fd)
          drain(&j->err_fd, j->err, MAX_ERR_BYTES, TRUE, NULL);
      }
    }
    /* reap children whose pipes are closed */
    for (int i = 0; i < njobs; i++) {
      job *j = &jobs[i];
      if (j->pid <= 0 || j->out_fd >= 0 || j->err_fd >= 0)
        continue;
      int status;
      pid_t w;
      do
        w = waitpid(j->pid, &status, 0);
      while (w < 0 && errno == EINTR);
      running--; /* before its row counts as done: the progress line's counts add up */
      cs_progress_set_running(sw->progress, (size_t)running);
      if (w == j->pid)
        finish_job(sw, j, status);
      job_clear(j);
    }
    cs_progress_set_partial(sw->progress, running_cost(jobs, njobs));
    cs_progress_tick(sw->progress);
  }
  g_free(pfd);
  g_free(owner);
  for (int i = 0; i < njobs; i++)
    if (jobs[i].argv)
      job_clear(&jobs[i]);
  g_free(jobs);
  return ok;
}

/* ------------------------------------------------------- output file ---- */

static gboolean read_fd(int fd, GString *buf, GError **err, const char *path)
{
  char chunk[65536];
  off_t off = 0;
  for (;;) {
    ssize_t r = pread(fd, chunk, sizeof chunk, off);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: cannot read: %s", path, g_strerror(errno));
      return FALSE;
    }
    if (r == 0)
      return TRUE;
    g_string_append_len(buf, chunk, r);
    off += r;
  }
}

static void fsync_dir_of(const char *path)
{
  char *dir = g_path_get_dirname(path);
  int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d >= 0) {
    fsync(d);
    close(d);
  }
  g_free(dir);
}

/* Open (creating) and lock the output, read its rows, repair a cut last line.
 * *empty: the file holds nothing yet (the header goes in with the first
 * row, so a sweep that writes no row leaves no header-only file).
 * Returns the fd or -1 (err set). */
static int open_output(const char *path, cs_sweep_rows **rows, gboolean *empty, gboolean *created_out, GError **err)
{
  gboolean created = FALSE;
  int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd >= 0)
    created = TRUE;
  else if (errno == EEXIST)
    fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
  if (fd < 0) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: cannot open for writing: %s", path, g_strerror(errno));
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: %s", path,
                errno == EWOULDBLOCK ? "another sweep is writing to it (give each sweep its own file)"
                                     : g_strerror(errno));
    close(fd);
    return -1;
  }
  GString *text = g_string_new(NULL);
  size_t complete = 0;
  if (!read_fd(fd, text, err, path) ||
      !(*rows = cs_sweep_rows_parse(text->str, text->len, path, &complete, err))) {
    g_string_free(text, TRUE);
    close(fd);
    return -1;
  }
  if (complete < text->len) {
    fprintf(stderr, "collsim sweep: %s: dropping an incomplete last line (%zu bytes, an interrupted write)\n",
              path, text->len - complete);
    if (ftruncate(fd, (off_t)complete) != 0) {
      g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: cannot truncate: %s", path, g_strerror(errno));
      g_string_free(text, TRUE);
      cs_sweep_rows_free(*rows);
      *rows = NULL;
      close(fd);
      return -1;
    }
  }
  if (cs_sweep_rows_bad(*rows))
    fprintf(stderr, "collsim sweep: %s: ignoring %zu malformed row(s); their points will run again\n", path,
            cs_sweep_rows_bad(*rows));
  *empty = complete == 0;
  *created_out = created;
  if (created)
    fsync_dir_of(path);
  g_string_free(text, TRUE);
  return fd;
}


/* ------------------------------------------- generic output + journal ---- */

/* The journal of a generic sweep's output: ".<name>.journal" beside it,
 * one line per finished point: the output's length after its rows, a tab,
 * the point's key.  A crash between the rows and their journal line leaves
 * rows that no line covers: they are cut off on resume and the point runs
 * again, so no row is lost or written twice. */
static char *journal_path(const char *out)
{
  char *dir = g_path_get_dirname(out), *base = g_path_get_basename(out);
  char *j = g_strdup_printf("%s/.%s.journal", dir, base);
  g_free(dir);
  g_free(base);
  return j;
}

typedef struct journal {
  GHashTable *done; /* keys */
  off_t covered;    /* output length the last complete line records */
  size_t complete;  /* journal bytes up to the last complete line */
} journal;

static gboolean read_journal(const char *jpath, journal *jr, GError **err)
{
  jr->done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  jr->covered = 0;
  jr->complete = 0;
  char *text = NULL;
  gsize len = 0;
  if (!g_file_test(jpath, G_FILE_TEST_EXISTS))
    return TRUE;
  GError *e = NULL;
  if (!g_file_get_contents(jpath, &text, &len, &e)) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: cannot read: %s", jpath, e->message);
    g_error_free(e);
    return FALSE;
  }
  size_t start = 0;
  for (size_t i = 0; i < len; i++) {
    if (text[i] != '\n')
      continue;
    text[i] = '\0';
    char *tab = strchr(text + start, '\t'), *end = NULL;
    long long off = tab ? strtoll(text + start, &end, 10) : -1;
    if (!tab || end != tab || off < 0) {
      g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: malformed line '%s'", jpath, text + start);
      g_free(text);
      return FALSE;
    }
    g_hash_table_add(jr->done, g_strdup(tab + 1));
    jr->covered = (off_t)off;
    jr->complete = i + 1;
    start = i + 1;
  }
  g_free(text);
  return TRUE;
}

/* Does a generic output's header (len bytes) end with the configuration
 * columns? */
static gboolean has_config_columns_n(const char *header, size_t len)
{
  char *config = g_strjoinv(",", (char **)cs_config_columns());
  char *suffix = g_strconcat(",", config, NULL), *line = g_strndup(header, len);
  gboolean ok = g_str_has_suffix(g_strchomp(line), suffix);
  g_free(config);
  g_free(suffix);
  g_free(line);
  return ok;
}

/* The first line of a generic output's text (len bytes), if complete, must
 * end with the configuration columns. */
static gboolean header_has_config(const char *text, size_t len, const char *path, GError **err)
{
  gssize header_len = cs_csv_first_record_length(text, len);
  if (header_len < 0 || has_config_columns_n(text, (size_t)header_len))
    return TRUE;
  g_set_error(err, CS_EXPERIMENT_ERROR, 3, OLD_FILE_MESSAGE, path);
  return FALSE;
}

/* The same for the file at path (fine when it does not exist). */
static gboolean generic_header_ok(const char *path, GError **err)
{
  char *text = NULL;
  gsize len = 0;
  gboolean ok = !g_file_get_contents(path, &text, &len, NULL) || header_has_config(text, len, path, err);
  g_free(text);
  return ok;
}

/* Open (creating) and lock a generic sweep's output and journal; cut what
 * no journal line covers; return the output's fd, its header (NULL when
 * empty) and length. */
static int open_generic_output(const char *path, journal *jr, int *jfd, char **header, off_t *len, GError **err)
{
  char *jpath = journal_path(path);
  int fd = -1;
  GString *text = g_string_new(NULL);
  *jfd = -1;
  *header = NULL;
  if (!read_journal(jpath, jr, err))
    goto fail;
  fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: %s", path,
                fd >= 0 && errno == EWOULDBLOCK ? "another sweep is writing to it (give each sweep its own file)"
                                                : g_strerror(errno));
    goto fail;
  }
  if (!read_fd(fd, text, err, path))
    goto fail;
  if ((off_t)text->len > 0 && g_hash_table_size(jr->done) == 0 && !g_file_test(jpath, G_FILE_TEST_EXISTS)) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 3, "%s holds rows but no sweep journal (%s): write to a new file", path,
                jpath);
    goto fail;
  }
  if (!header_has_config(text->str, text->len, path, err))
    goto fail;
  if ((off_t)text->len < jr->covered) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 3, "%s is shorter than its journal says (%zu < %lld bytes): it was "
                "changed by hand; write to a new file", path, text->len, (long long)jr->covered);
    goto fail;
  }
  if ((off_t)text->len > jr->covered) {
    fprintf(stderr, "collsim sweep: %s: dropping %lld bytes written by a point that did not finish\n", path,
            (long long)((off_t)text->len - jr->covered));
    if (ftruncate(fd, jr->covered) != 0) {
      g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: cannot truncate: %s", path, g_strerror(errno));
      goto fail;
    }
  }
  *len = jr->covered;
  if (jr->covered > 0) {
    gssize header_len = cs_csv_first_record_length(text->str, (size_t)jr->covered);
    *header = header_len >= 0 ? g_strndup(text->str, (gsize)header_len) : NULL;
  }

  *jfd = open(jpath, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (*jfd < 0 || ftruncate(*jfd, (off_t)jr->complete) != 0 || lseek(*jfd, 0, SEEK_END) < 0) {
    g_set_error(err, CS_EXPERIMENT_ERROR, 2, "%s: cannot write: %s", jpath, g_strerror(errno));
    goto fail;
  }
  g_string_free(text, TRUE);
  g_free(jpath);
  return fd;
fail:
  if (*jfd >= 0)
    close(*jfd);
  *jfd = -1;
  if (fd >= 0)
    close(fd);
  g_string_free(text, TRUE);
  g_free(jpath);
  return -1;
}


typedef struct block {
  size_t index; /* the point's index in the experiment */
  char *key;
  GString *rows;
} block;

static int block_cmp(const void *a, const void *b)
{
  size_t x = ((const block *)a)->index, y = ((const block *)b)->index;
  return (x > y) - (x < y);
}

/* When every point of a generic experiment is done: rows in the
 * experiment's point order, whatever order the runs finished in (jobs > 1,
 * reruns after a failure), so the file does not depend on its history.
 * Rewritten atomically (CSV, then journal; both describe the same rows). */
static gboolean finalize_order(const cs_experiment *e, const char *path, GError **err)
{
  char *jpath = journal_path(path), *text = NULL, *jtext = NULL;
  gsize len = 0, jlen = 0;
  gboolean ok = g_file_get_contents(path, &text, &len, err) && g_file_get_contents(jpath, &jtext, &jlen, err);
  GHashTable *index_of = g_hash_table_new(g_str_hash, g_str_equal);
  for (size_t i = 0; i < cs_experiment_npoints(e); i++)
    g_hash_table_insert(index_of, cs_experiment_point(e, i)->key, GSIZE_TO_POINTER(i + 1));
  GArray *blocks = g_array_new(FALSE, TRUE, sizeof(block));
  gssize first = ok ? cs_csv_first_record_length(text, len) : -1;
  size_t header_len = first >= 0 ? (size_t)first + 1 : 0, prev = header_len;
  char **lines = ok ? g_strsplit(jtext, "\n", -1) : NULL;
  gboolean sorted = TRUE;
  for (size_t i = 0; ok && lines[i] && *lines[i]; i++) {
    char *tab = strchr(lines[i], '\t');
    size_t off = tab ? (size_t)g_ascii_strtoull(lines[i], NULL, 10) : 0;
    gsize idx = tab ? GPOINTER_TO_SIZE(g_hash_table_lookup(index_of, tab + 1)) : 0;
    if (!tab || idx == 0 || off < prev || off > len) {
      ok = FALSE; /* a key of another experiment, or a damaged journal: leave the files as they are */
      break;
    }
    block b = {idx - 1, g_strdup(tab + 1), g_string_new_len(text + prev, (gssize)(off - prev))};
    if (blocks->len && g_array_index(blocks, block, blocks->len - 1).index > b.index)
      sorted = FALSE;
    g_array_append_val(blocks, b);
    prev = off;
  }
  if (ok && !sorted) {
    qsort(blocks->data, blocks->len, sizeof(block), block_cmp);
    GString *csv = g_string_new_len(text, (gssize)header_len), *journal = g_string_new(NULL);
    for (guint i = 0; i < blocks->len; i++) {
      const block *b = &g_array_index(blocks, block, i);
      g_string_append_len(csv, b->rows->str, (gssize)b->rows->len);
      g_string_append_printf(journal, "%zu\t%s\n", csv->len, b->key);
    }
    ok = g_file_set_contents(path, csv->str, (gssize)csv->len, err) &&
         g_file_set_contents(jpath, journal->str, (gssize)journal->len, err);
    g_string_free(csv, TRUE);
    g_string_free(journal, TRUE);
  }
  for (guint i = 0; i < blocks->len; i++) {
    g_free(g_array_index(blocks, block, i).key);
    g_string_free(g_array_index(blocks, block, i).rows, TRUE);
  }
  g_array_free(blocks, TRUE);
  g_hash_table_destroy(index_of);
  g_strfreev(lines);
  g_free(text);
  g_free(jtext);
  g_free(jpath);
  return ok || (err && *err == NULL);
}

/* The index of each point's config_key in e, plus one. */
static GHashTable *config_key_index(const cs_experiment *e)
{
  GHashTable *index_of = g_hash_table_new(g_str_hash, g_str_equal);
  for (size_t i = 0; i < cs_experiment_npoints(e); i++)
    g_hash_table_insert(index_of, cs_experiment_point(e, i)->config_key, GSIZE_TO_POINTER(i + 1));
  return index_of;
}

typedef struct keyed_line {
  size_t order; /* the point's index; rows of other configurations after every point, as they were */
  char *text;
} keyed_line;

static int keyed_line_cmp(const void *a, const void *b)
{
  size_t x = ((const keyed_line *)a)->order, y = ((const keyed_line *)b)->order;
  return (x > y) - (x < y);
}

/* A tree output whose every point is in: its rows in the experiment's point
 * order (gathered rows come in as their runs end), rows of other
 * configurations after them in their order.  Rewritten atomically. */
static gboolean finalize_tree_order(const cs_experiment *e, const char *path, GError **err)
{
  char *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents(path, &text, &len, err))
    return FALSE;
  GHashTable *index_of = config_key_index(e);
  char **lines = g_strsplit(text, "\n", -1);
  guint n = g_strv_length(lines);
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(keyed_line));
  int ncols = count_fields(cs_sweep_tree_header());
  for (guint i = 1; i < n; i++) {
    if (!*lines[i])
      continue;
    char *key = row_config_key(lines[i], ncols);
    gsize at = key ? GPOINTER_TO_SIZE(g_hash_table_lookup(index_of, key)) : 0;
    keyed_line l = {at ? at - 1 : cs_experiment_npoints(e) + i, lines[i]};
    g_array_append_val(rows, l);
    g_free(key);
  }
  g_array_sort(rows, keyed_line_cmp); /* orders are distinct: the sort is deterministic */
  GString *out = g_string_new(lines[0]);
  g_string_append_c(out, '\n');
  for (guint i = 0; i < rows->len; i++)
    g_string_append_printf(out, "%s\n", g_array_index(rows, keyed_line, i).text);
  gboolean ok = out->len != len || memcmp(out->str, text, len) != 0
                    ? g_file_set_contents(path, out->str, (gssize)out->len, err)
                    : TRUE;
  g_string_free(out, TRUE);
  g_array_free(rows, TRUE);
  g_strfreev(lines);
  g_hash_table_destroy(index_of);
  g_free(text);
  return ok;
}

/* An output this sweep created and left empty (every point refused or failed). */
static gboolean created_empty_output(gboolean existed, int fd)
{
  struct stat st;
  return !existed && fstat(fd, &st) == 0 && st.st_size == 0;
}

/* ------------------------------------------------------------ gather ---- */

/* A point's row file and log, as the job of a finished run. */
static void gathered_job(job *j, const cs_experiment *e, const cs_point *p, const char *exe, const char *dir,
                         char *text, gsize len)
{
  memset(j, 0, sizeof *j);
  j->out_fd = j->err_fd = -1;
  j->pt = p;
  j->argv = cs_point_argv(e, p, exe);
  j->out = g_string_new_len(text, (gssize)len);
  j->err = g_string_new(NULL);
  char *log = cs_plan_log_path(dir, p->index), *err_text = NULL;
  gsize err_len = 0;
  if (g_file_get_contents(log, &err_text, &err_len, NULL))
    g_string_append_len(j->err, err_len > MAX_ERR_BYTES ? err_text + err_len - MAX_ERR_BYTES : err_text,
                        (gssize)MIN(err_len, (gsize)MAX_ERR_BYTES));
  g_free(err_text);
  g_free(log);
}

/* Append the row file of point p, if there; *present when there is one. */
static gboolean gather_point(sweep *sw, const cs_plan *plan, const cs_point *p, gboolean *present)
{
  char *row = cs_plan_row_path(plan->dir, p->index), *text = NULL, *why = NULL;
  gsize len = 0;
  *present = g_file_get_contents(row, &text, &len, NULL);
  g_free(row);
  if (!*present)
    return FALSE;
  job j;
  gathered_job(&j, sw->e, p, sw->exe_display, plan->dir, text, len);
  g_free(text);
  gboolean ok = len <= MAX_ROW_BYTES && (sw->e->generic ? write_generic(sw, &j, &why) : write_tree(sw, &j, &why));
  if (!ok && (why || len > MAX_ROW_BYTES)) {
    char *what = g_strdup_printf("left a row file the sweep refuses: %s", why ? why : "more than 1 MiB");
    report_failure(sw, &j, what);
    g_free(what);
  }
  g_free(why);
  job_clear(&j);
  return ok;
}

/* The output opened for appending, as a run opens it; -1 on bad input (said). */
static int gather_open(sweep *sw, const char *out_path, cs_sweep_rows **rows, journal *jr, gboolean *existed)
{
  GError *err = NULL;
  int fd;
  *existed = g_file_test(out_path, G_FILE_TEST_EXISTS);
  if (sw->e->generic) {
    fd = open_generic_output(out_path, jr, &sw->journal_fd, &sw->header, &sw->out_len, &err);
  } else {
    gboolean created = FALSE;
    fd = open_output(out_path, rows, &sw->needs_header, &created, &err);
  }
  if (fd < 0) {
    fprintf(stderr, "collsim sweep: error: %s\n", err->message);
    g_error_free(err);
  }
  return fd;
}

static gboolean point_in_output(const cs_sweep_rows *rows, const journal *jr, const cs_point *p)
{
  return (rows && cs_sweep_rows_has(rows, p)) || (jr->done && p->key && g_hash_table_contains(jr->done, p->key));
}

int cs_sweep_gather(cs_experiment *e, const char *out_path, const cs_plan *plan, gboolean quiet, cs_gather *g)
{
  g->written = g->present = 0;
  g->missing = g_array_new(FALSE, FALSE, sizeof(size_t));
  g->refused = g_array_new(FALSE, FALSE, sizeof(size_t));
  cs_sweep_rows *rows = NULL;
  journal jr = {0};
  gboolean existed;
  char *exe = g_file_read_link("/proc/self/exe", NULL);
  if (!exe)
    exe = g_strdup("collsim");
  sweep sw = {.e = e, .out_path = out_path, .journal_fd = -1, .quiet = quiet, .exe_display = exe};
  sw.out_fd = gather_open(&sw, out_path, &rows, &jr, &existed);
  if (sw.out_fd < 0) {
    g_free(exe);
    return 2;
  }
  char *label = g_strdup_printf("%s (gathering %s)", e->name, plan->dir);
  sw.progress = cs_progress_new(stderr, label, cs_experiment_npoints(e), (double)cs_experiment_npoints(e), quiet);
  g_free(label);
  size_t still_pending = 0;
  for (size_t i = 0; i < cs_experiment_npoints(e) && !sw.stop_status; i++) {
    const cs_point *p = cs_experiment_point(e, i);
    gboolean planned = cs_plan_task_of(plan, i) >= 0, has_file = FALSE;
    if (point_in_output(rows, &jr, p))
      g->present += planned;
    else if (gather_point(&sw, plan, p, &has_file))
      g->written++;
    else {
      still_pending++;
      if (has_file)
        g_array_append_val(g->refused, i);
      else if (planned)
        g_array_append_val(g->missing, i);
    }
    cs_progress_done(sw.progress, 1, FALSE);
  }
  cs_progress_finish(sw.progress);
  int status = sw.stop_status;
  GError *err = NULL;
  if (!status && still_pending == 0 && g->written &&
      !(e->generic ? finalize_order(e, out_path, &err) : finalize_tree_order(e, out_path, &err))) {
    fprintf(stderr, "collsim sweep: cannot put %s in point order: %s\n", out_path, err->message);
    g_error_free(err);
    status = 1;
  }
  if (created_empty_output(existed, sw.out_fd)) {
    unlink(out_path);
    char *jpath = journal_path(out_path);
    unlink(jpath);
    g_free(jpath);
  }
  if (sw.journal_fd >= 0)
    close(sw.journal_fd);
  close(sw.out_fd);
  if (jr.done)
    g_hash_table_destroy(jr.done);
  g_free(sw.header);
  cs_sweep_rows_free(rows);
  g_free(exe);
  return status;
}

/* --plan's bad input, before anything is read or written: the runner (its
 * program, its options) and the plan folder (another experiment's plan). */
static gboolean plan_inputs_ok(const cs_experiment *e, const cs_sweep_options *o)
{
  GError *err = NULL;
  if (cs_runner_check(&o->runner, &err) && cs_plan_dir_check(e, o->plan_dir, FALSE, &err))
    return TRUE;
  fprintf(stderr, "collsim sweep: error: %s\n", err->message);
  g_error_free(err);
  return FALSE;
}

/* ------------------------------------------------------------ the run ---- */

int cs_sweep_run(cs_experiment *e, const cs_sweep_options *o)
{
  GError *err = NULL;
  int status = 0;
  cs_sweep_rows *rows = NULL;
  GPtrArray *pending = NULL;
  char *exe = NULL;
  int out_fd = -1;
  gboolean needs_header = FALSE, created = FALSE, existed = TRUE;
  journal jr = {0};       /* generic experiments */
  char *gen_header = NULL;
  off_t gen_len = 0;
  int journal_fd = -1;

  exe = g_file_read_link("/proc/self/exe", NULL);
  if (!exe)
    exe = g_strdup("collsim");

  if (o->gather_dir) {
    status = cs_sweep_gather_run(e, o);
    goto done;
  }
  gboolean read_only = o->dry_run || o->plan_dir;
  if (o->plan_dir && !plan_inputs_ok(e, o)) {
    status = 2;
    goto done;
  }

  /* rows already present */
  existed = o->out_path && g_file_test(o->out_path, G_FILE_TEST_EXISTS);
  if (e->generic && read_only) {
    char *jpath = o->out_path ? journal_path(o->out_path) : NULL;
    gboolean ok = !jpath || (read_journal(jpath, &jr, &err) && generic_header_ok(o->out_path, &err));
    g_free(jpath);
    if (!ok) {
      fprintf(stderr, "collsim sweep: error: %s\n", err->message);
      status = 2;
      goto done;
    }
  } else if (e->generic) {
    out_fd = open_generic_output(o->out_path, &jr, &journal_fd, &gen_header, &gen_len, &err);
    if (out_fd < 0) {
      fprintf(stderr, "collsim sweep: error: %s\n", err->message);
      status = 2;
      goto done;
    }
  } else if (read_only) {
    char *text = NULL;
    gsize len = 0;
    if (o->out_path && g_file_get_contents(o->out_path, &text, &len, NULL)) {
      rows = cs_sweep_rows_parse(text, len, o->out_path, NULL, &err);
      g_free(text);
      if (!rows) {
        fprintf(stderr, "collsim sweep: error: %s\n", err->message);
        status = 2;
        goto done;
      }
    }
  } else {
    out_fd = open_output(o->out_path, &rows, &needs_header, &created, &err);
    if (out_fd < 0) {
      fprintf(stderr, "collsim sweep: error: %s\n", err->message);
      status = 2;
      goto done;
    }
  }

  /* pending points */
  pending = g_ptr_array_new();
  size_t in_shard = 0, present = 0;
  for (size_t i = 0; i < cs_experiment_npoints(e); i++) {
    const cs_point *p = cs_experiment_point(e, i);
    if ((int)(p->index % (size_t)o->shard_count) != o->shard_index)
      continue;
    in_shard++;
    if ((rows && cs_sweep_rows_has(rows, p)) || (jr.done && p->key && g_hash_table_contains(jr.done, p->key))) {
      present++;
      continue;
    }
    g_ptr_array_add(pending, (gpointer)p);
  }

  if (o->plan_dir) {
    status = cs_sweep_plan_run(e, o, pending, exe);
    goto done;
  }
  if (o->dry_run) {
    for (guint i = 0; i < pending->len; i++) {
      char **pa = cs_point_argv(e, g_ptr_array_index(pending, i), exe);
      char *line = cs_sweep_command_line(pa);
      printf("%s\n", line);
      g_free(line);
      g_strfreev(pa);
    }
    fflush(stdout);
    goto done;
  }

  size_t stale = rows ? cs_sweep_rows_foreign(rows, e) : jr.done ? foreign(jr.done, e, FALSE) : 0;
  if (stale) /* a warning: --quiet silences progress, not this */
    fprintf(stderr, "collsim sweep: warning: %s holds rows of %zu point(s) run with another configuration (other "
            "parameters, extra_args or collsim version); they stay, told apart by config_key\n", o->out_path, stale);
  if (!o->quiet) {
    char *plat = e->generic ? g_strdup_printf("collsim %s", e->command) : cs_experiment_platform_label(e);
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "collsim sweep %s: %zu points", e->name, cs_experiment_npoints(e));
    if (o->shard_count > 1)
      g_string_append_printf(s, ", %zu in shard %d/%d", in_shard, o->shard_index, o->shard_count);
    g_string_append_printf(s, " (%s); %zu already in %s, %u to run", plat, present, o->out_path, pending->len);
    if (o->jobs > 1)
      g_string_append_printf(s, ", %d at a time", o->jobs);
    fprintf(stderr, "%s\n", s->str);
    g_string_free(s, TRUE);
    g_free(plat);
  }

  /* the ETA's weights: every pending point planned (point_cost.h) */
  cs_plan_budget budget = {.per_point = FALSE, .quiet = FALSE};
  cs_point_cost *costs = o->quiet ? NULL : cs_point_costs_plan(e, pending, exe, &budget);
  double weight = 0;
  for (guint i = 0; i < pending->len; i++)
    weight += costs ? cs_point_cost_total(&costs[i]) : 1;
  sweep sw = {
      .e = e,
      .out_path = o->out_path,
      .out_fd = out_fd,
      .journal_fd = journal_fd,
      .needs_header = needs_header,
      .header = gen_header,
      .out_len = gen_len,
      .quiet = o->quiet,
      .progress = cs_progress_new(stderr, e->name, pending->len, weight, o->quiet),
      .costs = costs,
      .exe_display = exe,
  };
  saved_signals saved;
  install_signals(&saved);
  gboolean ran = run_points(&sw, pending, o->jobs, &err);
  restore_signals(&saved);
  gen_header = sw.header;
  cs_progress_finish(sw.progress);
  g_free(costs);
  if (!ran) {
    fprintf(stderr, "collsim sweep: error: %s\n", err->message);
    status = 1;
  } else if (got_signal) {
    fprintf(stderr,
            "collsim sweep: interrupted by signal %d; %zu row(s) written to %s; run the same command again to "
            "resume\n",
            (int)got_signal, sw.written, o->out_path);
    status = 128 + got_signal;
  } else if (sw.stop_status) {
    if (sw.stop_status != 2)
      fprintf(stderr, "collsim sweep: stopped; %zu row(s) written to %s\n", sw.written, o->out_path);
    status = sw.stop_status;
  } else if (sw.failed) {
    fprintf(stderr, "collsim sweep: %zu of %u point(s) failed (see above); %zu row(s) written to %s; "
            "run the same command again to retry them\n",
            sw.failed, pending->len, sw.written, o->out_path);
    status = 1;
  } else {
    if (e->generic && o->shard_count == 1 && !finalize_order(e, o->out_path, &err)) {
      fprintf(stderr, "collsim sweep: cannot put %s in point order: %s\n", o->out_path, err->message);
      status = 1;
    }
    if (!o->quiet)
      fprintf(stderr, "collsim sweep %s: done, %zu row(s) written to %s\n", e->name, sw.written, o->out_path);
    if (status == 0 && o->shard_count == 1)
      status = cs_sweep_expect_check(e, o->out_path);
  }

done:
  if (out_fd >= 0 && created_empty_output(existed, out_fd)) {
    unlink(o->out_path); /* this sweep made it and wrote nothing into it */
    if (e && e->generic) {
      char *jpath = journal_path(o->out_path);
      unlink(jpath);
      g_free(jpath);
    }
  }
  if (journal_fd >= 0)
    close(journal_fd);
  if (jr.done)
    g_hash_table_destroy(jr.done);
  g_free(gen_header);
  if (out_fd >= 0)
    close(out_fd); /* releases the lock */
  if (pending)
    g_ptr_array_unref(pending);
  cs_sweep_rows_free(rows);
  g_free(exe);
  g_clear_error(&err);
  return status;
}
