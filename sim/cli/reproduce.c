/* `collsim reproduce TARGET [--out DIR] [--resume] [--quick] [--quiet]
 * [--jobs J]`: recompute a paper's results into a fresh folder, then compare
 * them row by row with the committed ones (sim/cli/compare.h).
 *
 * A target is a script, SRC/scripts/reproduce-TARGET.sh (SRC: the source
 * tree, $COLLSIM_SRCDIR or the one collsim was built from), whose top
 * comment is its documentation:
 *
 *   #!/usr/bin/env bash
 *   # TARGET: one-line summary
 *   # Compared with: results/seed003/     (optional; default results/TARGET/)
 *   # Duration: about 1 h 20 min; --quick about 2 min
 *   # ... the files it makes, the quick subset ...
 *
 * `collsim reproduce --help` lists the targets (summary and duration);
 * `collsim reproduce TARGET --help` prints the whole comment.  The script
 * runs with COLLSIM, COLLSIM_SRCDIR, OUT (DIR, absolute), QUICK, RESUME,
 * QUIET, JOBS and COMMITTED (the committed folder) in its environment
 * (scripts/lib-reproduce.sh) and writes only into DIR.
 *
 * DIR (default ./reproduce-TARGET) must be new or empty, unless --resume,
 * which continues a reproduction DIR holds (DIR/.reproduce records its
 * target and mode).  After the script, every CSV file in DIR is compared with the
 * committed folder's file of the same name; the report goes to stdout and
 * DIR/COMPARISON.txt.  Exit status: 0 the run succeeded and everything it
 * made matches; 1 a step failed or something differs; 2 bad input (nothing
 * is written); 128+N interrupted by signal N (--resume continues). */
#include "sim/cli/commands.h"
#include "sim/cli/compare.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/errors.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define STAMP ".reproduce"

/* The source tree, as an absolute path (the script changes folder). */
static const char *src_dir(void)
{
  static char *dir;
  if (!dir) {
    const char *env = g_getenv("COLLSIM_SRCDIR");
    dir = g_canonicalize_filename(env && *env ? env : COLLSIM_SRCDIR, NULL);
  }
  return dir;
}

/* ------------------------------------------------------------ targets ---- */

typedef struct target {
  char *name, *script;
  char *summary;   /* the text after "NAME: " on the first comment line */
  char *committed; /* "results/NAME/" unless "Compared with:" says otherwise */
  char *duration;  /* the text after "Duration: " */
  char *help;      /* the whole top comment */
} target;

static void target_clear(target *t)
{
  g_free(t->name);
  g_free(t->script);
  g_free(t->summary);
  g_free(t->committed);
  g_free(t->duration);
  g_free(t->help);
  memset(t, 0, sizeof *t);
}

static bool valid_name(const char *name)
{
  if (!*name)
    return false;
  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum(*p) && *p != '-' && *p != '_' && *p != '.')
      return false;
  return name[0] != '.';
}

/* Reads the script's top comment into t; false when it cannot be read. */
static bool read_header(target *t)
{
  char *text = NULL;
  if (!g_file_get_contents(t->script, &text, NULL, NULL))
    return false;
  char **lines = g_strsplit(text, "\n", -1);
  g_free(text);
  GString *help = g_string_new(NULL);
  char *first = g_strdup_printf("%s: ", t->name);
  for (char **l = lines + (lines[0] && g_str_has_prefix(lines[0], "#!")); *l && (*l)[0] == '#'; l++) {
    const char *s = (*l)[1] == ' ' ? *l + 2 : *l + 1;
    if (!t->summary && g_str_has_prefix(s, first))
      t->summary = g_strdup(s + strlen(first));
    else if (!t->duration && g_str_has_prefix(s, "Duration: "))
      t->duration = g_strdup(s + strlen("Duration: "));
    else if (!t->committed && g_str_has_prefix(s, "Compared with: "))
      t->committed = g_strstrip(g_strdup(s + strlen("Compared with: ")));
    g_string_append_printf(help, "%s\n", s);
  }
  g_free(first);
  g_strfreev(lines);
  t->help = g_string_free(help, FALSE);
  if (!t->summary)
    t->summary = g_strdup("(no summary line)");
  if (!t->duration)
    t->duration = g_strdup("unknown");
  if (!t->committed)
    t->committed = g_strdup_printf("results/%s/", t->name);
  return true;
}

/* Finds target `name` in the source tree; false when there is none. */
static bool target_find(const char *name, target *t)
{
  memset(t, 0, sizeof *t);
  if (!valid_name(name))
    return false;
  t->name = g_strdup(name);
  t->script = g_strdup_printf("%s/scripts/reproduce-%s.sh", src_dir(), name);
  if (access(t->script, R_OK) == 0 && read_header(t))
    return true;
  target_clear(t);
  return false;
}

/* The targets' names, sorted. */
static GPtrArray *target_names(void)
{
  char *dir = g_build_filename(src_dir(), "scripts", NULL);
  GPtrArray *files = cs_list_files(dir, "reproduce-", ".sh");
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < files->len; i++) {
    const char *f = g_ptr_array_index(files, i);
    g_ptr_array_add(names, g_strndup(f + strlen("reproduce-"), strlen(f) - strlen("reproduce-.sh")));
  }
  g_ptr_array_unref(files);
  g_free(dir);
  g_ptr_array_sort(names, cs_compare_by_name);
  return names;
}

/* "seed000, seed001, ..." */
static char *names_joined(void)
{
  GPtrArray *names = target_names();
  g_ptr_array_add(names, NULL);
  char *s = g_strjoinv(", ", (char **)names->pdata);
  g_ptr_array_unref(names);
  return s;
}

/* The list of targets: name, summary, duration. */
static char *targets_text(void)
{
  GString *s = g_string_new("Targets (collsim reproduce TARGET --help describes each):\n");
  GPtrArray *names = target_names();
  for (guint i = 0; i < names->len; i++) {
    target t;
    if (!target_find(g_ptr_array_index(names, i), &t))
      continue;
    g_string_append_printf(s, "  %-13s %s\n  %-13s   %s\n", t.name, t.summary, "", t.duration);
    target_clear(&t);
  }
  if (names->len == 0)
    g_string_append_printf(s, "  (none: no %s/scripts/reproduce-*.sh)\n", src_dir());
  g_ptr_array_unref(names);
  return g_string_free(s, FALSE);
}

static const char *const ABOUT =
    "Recomputes everything into DIR (default ./reproduce-TARGET, which must be\n"
    "new or empty; nothing is written anywhere else), one progress line per\n"
    "step on stderr, then compares every CSV it made with the committed one\n"
    "row by row (as collsim compare does) and prints what differs; the report\n"
    "is also written to DIR/COMPARISON.txt.  --resume continues an interrupted\n"
    "reproduction in DIR: steps whose files exist are skipped, a sweep cut\n"
    "short resumes where it stopped.  --quick runs the target's subset of a\n"
    "few minutes; committed rows it does not recompute are reported as such.\n"
    "Exit status: 0 everything made matches; 1 a step failed or a row differs;\n"
    "2 bad input; 128+N interrupted by signal N.\n";

/* --help: the list of targets, or one target's comment. */
static char *help_text(const target *t)
{
  if (t->name)
    return g_strdup_printf("%s\n%s", t->help, ABOUT);
  char *list = targets_text();
  char *s = g_strdup_printf("%s\n%s", ABOUT, list);
  g_free(list);
  return s;
}

/* The first argument that is not an option or an option's value. */
static const char *target_arg(int argc, char **argv)
{
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--out") || !strcmp(a, "-o") || !strcmp(a, "--jobs") || !strcmp(a, "-j"))
      i++;
    else if (!strcmp(a, "--"))
      return i + 1 < argc ? argv[i + 1] : NULL;
    else if (a[0] != '-')
      return a;
  }
  return NULL;
}

/* ---------------------------------------------------------------- DIR ---- */

typedef struct run {
  const cs_cli *cli;
  target t;
  char *dir;       /* absolute */
  char *committed; /* absolute */
  bool resume, quick, quiet;
  int64_t jobs;
  bool created;    /* DIR was made here */
} run;

static bool dir_is_empty(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  bool empty = d && g_dir_read_name(d) == NULL;
  if (d)
    g_dir_close(d);
  return empty;
}

static char *stamp_text(const run *r) { return g_strdup_printf("target=%s\nquick=%d\n", r->t.name, r->quick); }

/* "seed004 --quick" from a stamp's text. */
static char *stamp_describe(const char *text)
{
  char **lines = g_strsplit(text, "\n", -1);
  const char *name = "?";
  bool quick = false;
  for (char **l = lines; *l; l++) {
    if (g_str_has_prefix(*l, "target="))
      name = *l + strlen("target=");
    quick |= strcmp(*l, "quick=1") == 0;
  }
  char *s = g_strdup_printf("%s%s", name, quick ? " --quick" : "");
  g_strfreev(lines);
  return s;
}

/* --resume into a non-empty DIR: it must hold a reproduction of this target and mode. */
static int check_stamp(const run *r)
{
  char *path = g_build_filename(r->dir, STAMP, NULL), *text = NULL, *want = stamp_text(r);
  int rc = 0;
  if (!g_file_get_contents(path, &text, NULL, NULL)) {
    rc = cs_cli_usage(r->cli, "%s holds no reproduction to resume (no %s): give an empty or new --out", r->dir,
                      STAMP);
  } else if (strcmp(text, want) != 0) {
    char *was = stamp_describe(text), *now = stamp_describe(want);
    rc = cs_cli_usage(r->cli, "%s holds a reproduction of %s, not %s: resume it as it was started, or give "
                      "another --out", r->dir, was, now);
    g_free(was);
    g_free(now);
  }
  g_free(path);
  g_free(text);
  g_free(want);
  return rc;
}

/* Makes or checks DIR and writes its stamp. */
static int prepare_dir(run *r)
{
  if (r->resume && !g_file_test(r->dir, G_FILE_TEST_IS_DIR))
    return cs_cli_usage(r->cli, "--resume: %s is not a folder holding a reproduction (leave out --resume to start "
                        "one)", r->dir);
  if (r->resume && check_stamp(r) != 0)
    return 2;
  if (g_file_test(r->dir, G_FILE_TEST_EXISTS)) {
    if (!g_file_test(r->dir, G_FILE_TEST_IS_DIR))
      return cs_cli_usage(r->cli, "--out %s: exists and is not a folder", r->dir);
    if (!dir_is_empty(r->dir) && !r->resume)
      return cs_cli_usage(r->cli, "%s is not empty: give --resume to continue the reproduction there, or "
                          "another --out", r->dir);
    if (!dir_is_empty(r->dir) && check_stamp(r) != 0)
      return 2;
  } else if (g_mkdir_with_parents(r->dir, 0777) != 0) {
    return cs_cli_usage(r->cli, "--out %s: cannot make it: %s", r->dir, g_strerror(errno));
  } else {
    r->created = true;
  }
  char *path = g_build_filename(r->dir, STAMP, NULL), *text = stamp_text(r);
  GError *e = NULL;
  int rc = 0;
  if (!g_file_test(path, G_FILE_TEST_EXISTS) && !g_file_set_contents(path, text, -1, &e)) {
    rc = cs_cli_usage(r->cli, "--out %s: %s", r->dir, e->message);
    g_error_free(e);
    if (r->created)
      g_rmdir(r->dir);
  }
  g_free(path);
  g_free(text);
  return rc;
}

/* After bad input in the script: DIR as it was (removed if made here and still empty). */
static void undo_dir(const run *r)
{
  char *path = g_build_filename(r->dir, STAMP, NULL);
  GDir *d = g_dir_open(r->dir, 0, NULL);
  const char *first = d ? g_dir_read_name(d) : NULL;
  bool only_stamp = first && !strcmp(first, STAMP) && !g_dir_read_name(d);
  if (d)
    g_dir_close(d);
  if (only_stamp) {
    g_unlink(path);
    if (r->created)
      g_rmdir(r->dir);
  }
  g_free(path);
}

/* ------------------------------------------------------------- script ---- */

static volatile sig_atomic_t child_pid;

/* The script runs in its own process group, which every signal reaching
 * collsim (a ^C on the terminal included) is passed on to: the sweep under
 * way stops its points and the script stops. */
static void forward_signal(int sig)
{
  if (child_pid > 0)
    kill(-child_pid, sig);
}

static void set_env(const run *r, const char *self)
{
  char jobs[32];
  snprintf(jobs, sizeof jobs, "%lld", (long long)r->jobs);
  g_setenv("COLLSIM", self, TRUE);
  g_setenv("COLLSIM_SRCDIR", src_dir(), TRUE);
  g_setenv("OUT", r->dir, TRUE);
  g_setenv("COMMITTED", r->committed, TRUE);
  g_setenv("QUICK", r->quick ? "1" : "0", TRUE);
  g_setenv("RESUME", r->resume ? "1" : "0", TRUE);
  g_setenv("QUIET", r->quiet ? "1" : "0", TRUE);
  g_setenv("JOBS", jobs, TRUE);
}

/* Runs the target's script; its exit status, or 128+N when killed by signal N. */
static int run_script(const run *r)
{
  char *self = g_file_read_link("/proc/self/exe", NULL);
  if (!self) {
    fprintf(stderr, "collsim reproduce: error: cannot find the collsim binary (/proc/self/exe)\n");
    return 1;
  }
  set_env(r, self);
  g_free(self);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "collsim reproduce: error: cannot start bash: %s\n", g_strerror(errno));
    return 1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    execl("/bin/bash", "bash", r->t.script, (char *)NULL);
    fprintf(stderr, "collsim reproduce: error: cannot run /bin/bash: %s\n", g_strerror(errno));
    _exit(1);
  }
  setpgid(pid, pid);
  child_pid = pid;
  const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction sa = {0}, old[G_N_ELEMENTS(sigs)];
  sa.sa_handler = forward_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++)
    sigaction(sigs[i], &sa, &old[i]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++)
    sigaction(sigs[i], &old[i], NULL);
  child_pid = 0;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* --------------------------------------------------------- comparison ---- */

/* Compares DIR with the committed folder: report on stdout and in
 * DIR/COMPARISON.txt.  0 match, 1 differ or cannot compare. */
static int compare(const run *r, int script_status)
{
  cs_compare_opts o = {NULL, NULL, 0, r->quick};
  cs_compare_totals t = {0};
  GString *report = g_string_new(NULL);
  g_string_append_printf(report, "collsim reproduce %s%s: %s compared with the committed %s\n", r->t.name,
                         r->quick ? " --quick" : "", r->dir, r->committed);
  if (script_status != 0)
    g_string_append(report, "Some steps FAILED (exit 1; their messages are on stderr): their files are missing.\n");
  GError *e = NULL;
  int rc = 0;
  if (!g_file_test(r->committed, G_FILE_TEST_IS_DIR))
    g_string_append(report, "\nNo committed folder: nothing to compare with.\n");
  else if (!cs_compare_dirs(r->committed, r->dir, &o, &t, report, &e))
    rc = 1;
  else
    cs_compare_summary(&t, &o, report);
  if (rc == 0 && !cs_compare_ok(&t, &o))
    rc = 1;
  fputs(report->str, stdout);
  fflush(stdout);
  char *path = g_build_filename(r->dir, "COMPARISON.txt", NULL);
  if (e || !cs_write_file_atomic(path, report->str, report->len, &e)) {
    fprintf(stderr, "collsim reproduce: error: %s\n", e->message);
    rc = 1;
  }
  g_clear_error(&e);
  g_free(path);
  g_string_free(report, TRUE);
  return rc;
}

/* ----------------------------------------------------------------- main ---- */

static int check_args(run *r, const char *out)
{
  const cs_cli *c = r->cli;
  guint n = g_strv_length(c->rest);
  if (n == 0)
    return cs_cli_usage(c, "expected a TARGET (collsim reproduce --help lists them)");
  if (n > 1)
    return cs_cli_usage(c, "unexpected argument '%s' (one TARGET)", c->rest[1]);
  if (!r->t.name || strcmp(r->t.name, c->rest[0]) != 0) {
    char *known = names_joined();
    int rc = cs_cli_usage(c, "unknown target '%s' (known: %s)", c->rest[0], known);
    g_free(known);
    return rc;
  }
  char *dir = out ? g_strdup(out) : g_strdup_printf("reproduce-%s", r->t.name);
  r->dir = g_canonicalize_filename(dir, NULL);
  g_free(dir);
  r->committed = g_canonicalize_filename(r->t.committed, src_dir());
  return 0;
}

static int reproduce(run *r)
{
  int rc = prepare_dir(r);
  if (rc != 0)
    return rc;
  int status = run_script(r);
  if (status == 2) {
    undo_dir(r);
    return 2;
  }
  if (status > 2) {
    fprintf(stderr, "collsim reproduce: interrupted (exit %d); collsim reproduce %s --out %s --resume%s continues\n",
            status, r->t.name, r->dir, r->quick ? " --quick" : "");
    return status;
  }
  return compare(r, status) != 0 || status != 0 ? 1 : 0;
}

int cs_reproduce_main(int argc, char **argv)
{
  char *out = NULL;
  bool list = false;
  run r = {0};
  r.jobs = 1;
  const cs_opt opts[] = {
      {"out", 'o', CS_OPT_STRING, &out, "DIR", "write into DIR (default ./reproduce-TARGET; new or empty unless "
       "--resume)", 0, 0, 0, 0, NULL},
      {"resume", 0, CS_OPT_FLAG, &r.resume, NULL, "continue the reproduction in DIR: skip finished steps, resume "
       "interrupted sweeps", 0, 0, 0, 0, NULL},
      {"quick", 0, CS_OPT_FLAG, &r.quick, NULL, "the target's subset that takes a few minutes", 0, 0, 0, 0, NULL},
      {"quiet", 'q', CS_OPT_FLAG, &r.quiet, NULL, "no progress lines on stderr", 0, 0, 0, 0, NULL},
      {"jobs", 'j', CS_OPT_INT, &r.jobs, "J", "points each sweep runs at once (default 1)", 1, 1024, 0, 0, NULL},
      {"list", 0, CS_OPT_FLAG, &list, NULL, "list the targets", 0, 0, 0, 0, NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  const char *name = target_arg(argc, argv);
  if (name)
    target_find(name, &r.t);
  char *help = help_text(&r.t);
  char *summary = r.t.name ? g_strdup(r.t.summary)
                           : g_strdup("recompute a paper's results into a fresh folder and compare them with the "
                                      "committed ones");
  cs_cli c;
  int rc = cs_cli_parse(&c, "reproduce", 0, opts, r.t.name ? r.t.name : "TARGET", summary, help, argc, argv);
  r.cli = &c;
  static const cs_opt_rule rules[] = {
      {"out resume quick quiet jobs", "!list"}, /* --list lists and reproduces nothing */
      {NULL, NULL},
  };
  if (rc == 0)
    rc = cs_cli_check_rules(&c, rules, NULL);
  if (rc == 0 && list && c.rest[0])
    rc = cs_cli_usage(&c, "--list lists every target: unexpected argument '%s'", c.rest[0]);
  if (rc == 0 && list) {
    char *text = targets_text();
    fputs(text, stdout);
    g_free(text);
  } else if (rc == 0 && (rc = check_args(&r, out)) == 0) {
    rc = reproduce(&r);
  }
  g_free(help);
  g_free(summary);
  g_free(r.dir);
  g_free(r.committed);
  target_clear(&r.t);
  cs_cli_free(&c);
  return rc;
}
